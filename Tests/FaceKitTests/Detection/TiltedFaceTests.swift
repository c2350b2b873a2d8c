import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKit

/// Faces tilted in the picture: the 68-point model, trained on upright faces, is run again on an
/// upright crop (``UprightSeed``).
@Suite("Tilted faces", .needsModels)
struct TiltedFaceTests {
    /// The astronaut turned `degrees` clockwise by ffmpeg, as a PNG in a temporary file.
    static func turnedAstronaut(_ degrees: Int) throws -> String {
        let path = NSTemporaryDirectory() + "facekit-tilt-\(UUID().uuidString).png"
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = [
            "-v", "error", "-nostdin", "-y", "-i", TestData.fixture("astronaut.png"), "-vf",
            "rotate=\(degrees)*PI/180:fillcolor=black", path,
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        try #require(ffmpeg.terminationStatus == 0)
        return path
    }

    @Test("a face turned 15-25 degrees keeps its pitch and yaw, and its roll turns with it", arguments: [15, 20, 25])
    func turned(degrees: Int) throws {
        var options = FaceDetectorOptions()
        options.minFaceSize = 0.05
        let detector = try FaceDetector(options: options, models: ModelLocator(directory: TestData.models))
        let upright = try #require(try detector.process(contentsOfFile: TestData.fixture("astronaut.png")).first)
        let path = try Self.turnedAstronaut(degrees)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let turned = try #require(try detector.process(contentsOfFile: path).first)
        // Clockwise on screen is negative roll.
        #expect(abs(turned.headEulerAngleZ - (upright.headEulerAngleZ - Double(degrees))) < 3, "roll \(turned.headEulerAngleZ)")
        #expect(abs(turned.headEulerAngleX - upright.headEulerAngleX) < 3, "pitch \(turned.headEulerAngleX)")
        #expect(abs(turned.headEulerAngleY - upright.headEulerAngleY) < 8, "yaw \(turned.headEulerAngleY)")
    }

    @Test("the crop's points map back onto the image: the crop's centre is the seed box's, its x axis the eye line")
    func cropGeometry() {
        let seed = UprightSeed(box: CGRect(x: 100, y: 50, width: 40, height: 40), roll: .pi / 6)
        #expect(seed.cropSide == 80)
        let centre = seed.imagePoint(CGPoint(x: 40, y: 40))
        #expect(abs(centre.x - 120) < 1e-9 && abs(centre.y - 70) < 1e-9)
        let right = seed.imagePoint(CGPoint(x: 50, y: 40))
        #expect(abs(right.x - (120 + 10 * cos(.pi / 6))) < 1e-9 && abs(right.y - (70 + 10 * sin(.pi / 6))) < 1e-9)
        #expect(UprightSeed(box: .zero, roll: 0.1).needsTurning == false)
        #expect(UprightSeed(box: .zero, roll: 0.3).needsTurning == false)
        #expect(UprightSeed(box: .zero, roll: -0.4).needsTurning)
    }
}
