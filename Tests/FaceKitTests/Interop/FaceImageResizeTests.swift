import Foundation
import Testing
import FaceKitTestSupport
@testable import FaceKit

@Suite("FaceImage: resizing for display")
struct FaceImageResizeTests {
    /// A 40x20 image whose left half is black and right half white.
    static func halves() throws -> FaceImage {
        var pixels = [UInt8](repeating: 0, count: 40 * 20)
        for y in 0..<20 { for x in 20..<40 { pixels[y * 40 + x] = 255 } }
        return try pixels.withUnsafeBytes {
            try FaceImage(pixels: $0, width: 40, height: 20, bytesPerRow: 40, format: .gray8)
        }
    }

    @Test("a region is cut and scaled to the size asked: the right half comes out white")
    func region() throws {
        let image = try Self.halves()
        let right = try image.resized(region: CGRect(x: 20, y: 0, width: 20, height: 20), width: 5, height: 5)
        #expect(right.width == 5 && right.height == 5)
        #expect(try right.pixels(format: .gray8).allSatisfy { $0 == 255 })
        let whole = try image.resized(width: 4, height: 2)
        #expect(try whole.pixels(format: .gray8) == [0, 0, 255, 255, 0, 0, 255, 255])
    }

    @Test("a region off the image, or a size out of range, is refused")
    func refused() throws {
        let image = try Self.halves()
        #expect(throws: FaceKitError.self) {
            try image.resized(region: CGRect(x: 50, y: 0, width: 10, height: 10), width: 5, height: 5)
        }
        #expect(throws: FaceKitError.self) { try image.resized(width: 0, height: 5) }
    }

    @Test("a JPEG read for display is decoded reduced, and regions stay in full-size pixels")
    func displayDecode() throws {
        // astronaut-3072x1536.jpg: decoded at 1/4 (768 px) when 700 px are asked for.
        let image = try FaceImage(contentsOfFile: TestData.fixture("astronaut-3072x1536.jpg"), displayWidth: 700)
        #expect(image.width == 768 && image.fullSizeWidth == 3072 && image.fullSizeHeight == 1536)
        let full = try FaceImage(contentsOfFile: TestData.fixture("astronaut-3072x1536.jpg"))
        let region = CGRect(x: 1024, y: 256, width: 1024, height: 1024)
        let reduced = try image.resized(region: region, width: 64, height: 64).pixels(format: .gray8)
        let exact = try full.resized(region: region, width: 64, height: 64).pixels(format: .gray8)
        let meanDifference = zip(reduced, exact).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / 4096
        #expect(meanDifference < 4, "the same part of the photo: mean grey difference \(meanDifference)")
    }
}
