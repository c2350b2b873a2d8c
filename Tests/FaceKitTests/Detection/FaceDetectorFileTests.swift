import Foundation
import Testing
import FaceKitTestSupport
@testable import FaceKit

/// `FaceDetector.process(contentsOfFile:)`: HEIC photos come out upright, and large JPEGs decoded
/// at a reduced size give the faces of a full-size decode, in full-size coordinates.
@Suite("FaceDetector on files", .needsModels)
struct FaceDetectorFileTests {
    static func detector(_ configure: (inout FaceDetectorOptions) -> Void = { _ in }) throws -> FaceDetector {
        var options = FaceDetectorOptions()
        configure(&options)
        return try FaceDetector(options: options, models: ModelLocator(directory: TestData.models))
    }

    /// Largest distance between corresponding edges of two boxes, as a fraction of the first's width.
    static func edgeError(_ a: CGRect, _ b: CGRect) -> Double {
        [abs(a.minX - b.minX), abs(a.minY - b.minY), abs(a.maxX - b.maxX), abs(a.maxY - b.maxY)].max()! / a.width
    }

    @Test("finds the astronaut in a HEIC stored sideways where it is in the upright PNG")
    func heifUpright() throws {
        let detector = try Self.detector { $0.landmarkMode = .all }
        let png = try detector.process(contentsOfFile: TestData.fixture("astronaut-portrait.png"))
        let heic = try detector.process(contentsOfFile: TestData.fixture("astronaut-portrait-irot.heic"))
        try #require(png.count == 1 && heic.count == 1)
        #expect(Self.edgeError(png[0].frame, heic[0].frame) < 0.05, "\(png[0].frame) vs \(heic[0].frame)")
        #expect(abs(heic[0].headEulerAngleZ) < 10, "upright, not turned: roll \(heic[0].headEulerAngleZ)")
        let leftEye = try #require(heic[0].landmark(ofType: .leftEye)).position
        let mouth = try #require(heic[0].landmark(ofType: .mouthBottom)).position
        #expect(mouth.y > leftEye.y)
    }

    @Test("a large JPEG decoded at half size gives the full-size decode's face, in full-size pixels")
    func reducedJPEGMatchesFullDecode() throws {
        // 3072x1536, the face about 550 px wide. minFaceSize 0.15 needs 1334 px, so 1/2 (1536 px).
        let path = TestData.fixture("astronaut-3072x1536.jpg")
        let detector = try Self.detector {
            $0.minFaceSize = 0.15
            $0.landmarkMode = .all
        }
        #expect(detector.minimumDecodeWidth == 1334)
        let reduced = try FaceImage(
            contentsOfFile: path, maxPixels: FaceImage.defaultMaxPixels, minimumWidth: detector.minimumDecodeWidth)
        #expect(reduced.reduction == 2 && reduced.width == 1536)

        let full = try detector.process(FaceImage(contentsOfFile: path))
        let fromFile = try detector.process(contentsOfFile: path)
        try #require(full.count == 1 && fromFile.count == 1)
        let (a, b) = (full[0], fromFile[0])
        #expect(a.frame.width > 450, "full-size coordinates: \(b.frame)")
        #expect(Self.edgeError(a.frame, b.frame) < 0.04, "\(a.frame) vs \(b.frame)")
        for landmark in a.landmarks {
            let other = try #require(b.landmark(ofType: landmark.type)).position
            let distance = hypot(landmark.position.x - other.x, landmark.position.y - other.y)
            #expect(distance < 0.04 * a.frame.width, "\(landmark.type): \(landmark.position) vs \(other)")
        }
        #expect(abs(a.headEulerAngleY - b.headEulerAngleY) < 4 && abs(a.headEulerAngleZ - b.headEulerAngleZ) < 4)
    }

    @Test("the default minimum face size decodes at no less than 2000 px wide")
    func defaultDecodeWidth() throws {
        #expect(try Self.detector().minimumDecodeWidth == 2000)
        #expect(try Self.detector { $0.minFaceSize = 0.05 }.minimumDecodeWidth == 4000)
    }
}
