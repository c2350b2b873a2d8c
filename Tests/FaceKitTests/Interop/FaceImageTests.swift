import Foundation
import Testing
import FaceKitTestSupport
@testable import FaceKit

@Suite("FaceImage")
struct FaceImageTests {
    @Test("decodes every supported format at full size",
          arguments: ["astronaut.png", "astronaut.jpg", "astronaut.bmp", "astronaut.tiff", "astronaut.webp",
                      "astronaut-gray.png", "astronaut-rgba.png", "astronaut-16bit.png"])
    func formats(name: String) throws {
        let image = try FaceImage(contentsOfFile: TestData.fixture(name))
        #expect(image.width == 512 && image.height == 512)
    }

    @Test("applies EXIF orientation: a sideways-stored portrait comes out upright")
    func exifOrientation() throws {
        let image = try FaceImage(contentsOfFile: TestData.fixture("astronaut-portrait-exif6.jpg"))
        #expect(image.width == 400 && image.height == 512)
    }

    @Test("decodes encoded bytes held in memory")
    func fromData() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestData.fixture("astronaut.jpg")))
        let image = try FaceImage(data: data)
        #expect(image.width == 512)
    }

    @Test("copies raw pixels of each layout")
    func fromPixels() throws {
        let bytes = [UInt8](repeating: 128, count: 4 * 10 * 6)
        for format in [FaceImage.PixelFormat.gray8, .rgb8, .bgr8, .rgba8, .bgra8] {
            let image = try bytes.withUnsafeBytes {
                try FaceImage(pixels: $0, width: 6, height: 10, bytesPerRow: 24, format: format)
            }
            #expect(image.width == 6 && image.height == 10)
        }
        #expect(throws: FaceKitError.self) {
            try bytes.withUnsafeBytes { try FaceImage(pixels: $0, width: 100, height: 100, bytesPerRow: 400, format: .rgba8) }
        }
    }

    @Test("a missing file is unreadable, naming the file")
    func missingFile() {
        let path = "/nonexistent/photo.jpg"
        #expect {
            try FaceImage(contentsOfFile: path)
        } throws: { error in
            guard case .unreadableFile(let named, _) = error as? FaceKitError else { return false }
            return named == path && "\(error)".contains(path)
        }
    }

    @Test("a folder is unreadable")
    func folder() {
        #expect(throws: FaceKitError.self) { try FaceImage(contentsOfFile: NSTemporaryDirectory()) }
    }

    @Test("empty, non-image and truncated files are not images, with the reason")
    func badContents() throws {
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: TestData.fixture("astronaut.jpg")))
        let png = try Data(contentsOf: URL(fileURLWithPath: TestData.fixture("astronaut.png")))
        let cases: [(Data, String)] = [
            (Data(), "empty"),
            (Data("hello, I am text".utf8), "unknown format"),
            (jpeg.prefix(jpeg.count / 2), "truncated JPEG"),
            (png.prefix(png.count / 2), "corrupt"),
            (jpeg.prefix(200), "truncated JPEG"),
        ]
        for (data, reason) in cases {
            #expect {
                try FaceImage(data: data, name: "case.bin")
            } throws: { error in
                guard case .notAnImage(let source, let message) = error as? FaceKitError else { return false }
                return source == "case.bin" && message.contains(reason)
            }
        }
    }

    @Test("an image over the pixel limit is refused before decoding")
    func tooLarge() {
        #expect {
            try FaceImage(contentsOfFile: TestData.fixture("astronaut.png"), maxPixels: 512 * 511)
        } throws: { error in
            guard case .imageTooLarge = error as? FaceKitError else { return false }
            return "\(error)".contains("512x512")
        }
    }
}
