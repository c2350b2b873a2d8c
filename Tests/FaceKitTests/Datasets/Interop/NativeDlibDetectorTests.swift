import Foundation
import Testing
import FaceKitDatasets
import FaceKitTestSupport

@testable import FaceKit

@Suite("NativeDlibDetector")
struct NativeDlibDetectorTests {
    /// Tests/Fixtures/astronaut.png three times side by side: three faces.
    static func threeAstronauts() throws -> FaceImage {
        let single = try FaceImage(contentsOfFile: TestData.fixture("astronaut.png"))
        let pixels = try single.pixels(format: .rgb8)
        let row = 3 * single.width
        var wide: [UInt8] = []
        for y in 0..<single.height {
            for _ in 0..<3 { wide += pixels[y * row..<(y + 1) * row] }
        }
        return try wide.withUnsafeBytes {
            try FaceImage(pixels: $0, width: 3 * single.width, height: single.height, bytesPerRow: 3 * row, format: .rgb8)
        }
    }

    @Test("more faces than the buffer holds are all returned, as with room to spare", arguments: [0, 1, 2])
    func moreFacesThanCapacity(capacity: Int) throws {
        let image = try Self.threeAstronauts()
        let detector = try NativeDlibDetector(kind: .hog, modelPath: nil)
        let roomy = try detector.detect(in: image, scale: 1)
        // The three faces, and what else dlib's HOG detector reports at its threshold of 0.
        #expect(roomy.count >= 3)
        let tight = try detector.detect(in: image, scale: 1, capacity: capacity)
        #expect(tight.map(\.box) == roomy.map(\.box))
    }
}
