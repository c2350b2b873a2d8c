import Foundation
import Testing
import FaceKitDatasets
import FaceKitTestSupport
import FaceKit

/// OpenCV's haarcascade_smile.xml through `fk_cascade`, the smile baseline of docs/accuracy.md.
@Suite("HaarSmileBaseline")
struct HaarSmileBaselineTests {
    static var hasCascade: Bool { FileManager.default.fileExists(atPath: HaarSmileBaseline.defaultPath) }

    @Test("a missing cascade file is an unavailable model, naming the file and the package")
    func missingFile() {
        let path = "/nonexistent/haarcascade_smile.xml"
        #expect {
            try HaarSmileBaseline(path: path)
        } throws: { error in
            guard case .modelUnavailable(let name, let reason) = error as? FaceKitError else { return false }
            return name == path && reason.contains("opencv-data")
        }
    }

    @Test("a file that is not a cascade is an unavailable model")
    func notACascade() {
        #expect {
            try NativeCascade(path: TestData.fixture("astronaut.png"))
        } throws: { error in
            guard case .modelUnavailable = error as? FaceKitError else { return false }
            return true
        }
    }

    @Test("a region smaller than the cascade's window, or outside the image, scores 0",
          .enabled(if: hasCascade, "skipped: \(HaarSmileBaseline.defaultPath) not found; install opencv-data"))
    func tinyRegion() throws {
        let cascade = try NativeCascade(path: HaarSmileBaseline.defaultPath)
        let image = try FaceImage(contentsOfFile: TestData.fixture("astronaut.png"))
        #expect(try cascade.bestNeighbours(in: image, region: CGRect(x: 200, y: 200, width: 20, height: 10)) == 0)
        #expect(try cascade.bestNeighbours(in: image, region: CGRect(x: 600, y: 600, width: 100, height: 100)) == 0)
    }

    @Test("a scale factor of 1 or less is refused",
          .enabled(if: hasCascade, "skipped: \(HaarSmileBaseline.defaultPath) not found; install opencv-data"))
    func badScaleFactor() throws {
        let cascade = try NativeCascade(path: HaarSmileBaseline.defaultPath)
        let image = try FaceImage(contentsOfFile: TestData.fixture("astronaut.png"))
        #expect(throws: FaceKitError.self) {
            try cascade.bestNeighbours(in: image, region: CGRect(x: 0, y: 0, width: 512, height: 512), scaleFactor: 1)
        }
    }

    @Test("a posed happy face scores above angry and disgusted ones",
          .needsModels, .needsSharedData,
          .enabled(if: hasCascade, "skipped: \(HaarSmileBaseline.defaultPath) not found; install opencv-data"))
    func posedExpressions() throws {
        var options = FaceDetectorOptions()
        options.minFaceSize = 0.1
        let detector = try FaceDetector(options: options, models: ModelLocator(directory: TestData.models))
        let baseline = try HaarSmileBaseline()
        func score(_ path: String) throws -> Double {
            let image = try FaceImage(contentsOfFile: TestData.shared(path))
            let face = try #require(try detector.process(image).max { $0.frame.width < $1.frame.width })
            return try baseline.score(in: image, face: face.frame)
        }
        let happy = try score("photos/pyfeat/0-f15-hao-ph.jpg")
        let angry = try score("photos/pyfeat/15-f13-anc-ph.jpg")
        let disgusted = try score("photos/pyfeat/45-m7-di-ph.jpg")
        print("haarcascade_smile scores: happy \(happy), angry \(angry), disgusted \(disgusted)")
        #expect(happy > angry && happy > disgusted, "happy \(happy), angry \(angry), disgusted \(disgusted)")
    }
}
