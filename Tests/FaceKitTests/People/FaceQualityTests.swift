import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKit

@Suite("FaceQuality and descriptors", .needsModels)
struct FaceQualityTests {
    static func detector(descriptors: Bool) throws -> FaceDetector {
        var options = FaceDetectorOptions()
        options.descriptorMode = descriptors ? .all : .none
        return try FaceDetector(options: options, models: ModelLocator(directory: TestData.models))
    }

    /// The astronaut passed through ffmpeg with `filter`, as a PNG in a temporary file.
    static func filteredAstronaut(_ filter: String) throws -> String {
        let path = NSTemporaryDirectory() + "facekit-quality-\(UUID().uuidString).png"
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = ["-v", "error", "-nostdin", "-y", "-i", TestData.fixture("astronaut.png"), "-vf", filter, path]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        try #require(ffmpeg.terminationStatus == 0, "ffmpeg could not apply \(filter)")
        return path
    }

    @Test("blurring or darkening a face lowers its quality, through the term that measures it")
    func degradedShots() throws {
        let detector = try Self.detector(descriptors: false)
        let sharp = try #require(try detector.process(contentsOfFile: TestData.fixture("astronaut.png")).first)
        let blurredPath = try Self.filteredAstronaut("boxblur=4:2")
        let darkPath = try Self.filteredAstronaut("eq=brightness=-0.35")
        defer { for path in [blurredPath, darkPath] { try? FileManager.default.removeItem(atPath: path) } }
        let blurred = try #require(try detector.process(contentsOfFile: blurredPath).first)
        let dark = try #require(try detector.process(contentsOfFile: darkPath).first)
        let terms = try zip([sharp, blurred, dark], [TestData.fixture("astronaut.png"), blurredPath, darkPath]).map {
            face, path in try FaceQuality.terms(of: face, in: FaceImage(contentsOfFile: path))
        }
        #expect(sharp.quality > 0.7, "a sharp, frontal portrait, its face 90 px wide")
        #expect(terms[0].sharpness > 0.8)
        #expect(blurred.quality < sharp.quality - 0.1)
        #expect(terms[1].sharpness < terms[0].sharpness - 0.3)
        #expect(dark.quality < sharp.quality)
        #expect(terms[2].exposure < terms[0].exposure - 0.2)
    }

    @Test("the Laplacian's variance is 0 on a flat chip and large on a checkerboard")
    func laplacian() {
        let side = 16
        #expect(FaceQuality.laplacianVariance(of: [UInt8](repeating: 90, count: side * side), side: side) == 0)
        let checkerboard = (0..<(side * side)).map { UInt8(($0 / side + $0 % side) % 2 == 0 ? 0 : 255) }
        #expect(FaceQuality.laplacianVariance(of: checkerboard, side: side) > 100_000)
    }

    @Test("the score is the weighted geometric mean, each term floored at 0.01")
    func score() {
        let perfect = FaceQuality.Terms(size: 1, sharpness: 1, frontalness: 1, eyesOpen: 1, exposure: 1)
        #expect(FaceQuality.score(perfect) == 1)
        var small = perfect
        small.size = 0.5
        #expect(abs(FaceQuality.score(small) - pow(0.5, 0.25)) < 1e-12)
        var turned = perfect
        turned.frontalness = 0
        #expect(abs(FaceQuality.score(turned) - pow(0.01, 0.25)) < 1e-12)
    }

    @Test("descriptors are computed only when asked, and say so when not")
    func descriptorsOnRequest() throws {
        let plain = try #require(try Self.detector(descriptors: false).process(contentsOfFile: TestData.fixture("astronaut.png")).first)
        #expect(plain.descriptor == nil)
        #expect(plain.descriptorAbsenceReason == .notRequested)
        let described = try #require(try Self.detector(descriptors: true).process(contentsOfFile: TestData.fixture("astronaut.png")).first)
        let descriptor = try #require(described.descriptor)
        #expect(descriptor.values.count == FaceDescriptor.length)
        #expect(described.descriptorAbsenceReason == nil)
        #expect(descriptor.distance(to: descriptor) == 0)
    }
}
