import Foundation
import Testing
import FaceKitTestSupport
@testable import FaceKit

@Suite("FaceImage")
struct FaceImageTests {
    @Test("decodes every supported format at full size",
          arguments: ["astronaut.png", "astronaut.jpg", "astronaut.bmp", "astronaut.tiff", "astronaut.webp",
                      "astronaut.avif", "astronaut-10bit.heic", "astronaut-gray.png", "astronaut-rgba.png",
                      "astronaut-16bit.png"])
    func formats(name: String) throws {
        let image = try FaceImage(contentsOfFile: TestData.fixture(name))
        #expect(image.width == 512 && image.height == 512)
    }

    @Test("applies EXIF orientation: a sideways-stored portrait comes out upright")
    func exifOrientation() throws {
        let image = try FaceImage(contentsOfFile: TestData.fixture("astronaut-portrait-exif6.jpg"))
        #expect(image.width == 400 && image.height == 512)
    }

    @Test("applies a HEIC's irot rotation and not its EXIF orientation, which says the same again")
    func heifOrientation() throws {
        // Stored sideways (512x400) with irot 270 and EXIF orientation 6, as an iPhone writes it:
        // applying both would give 512x400 again.
        let path = TestData.fixture("astronaut-portrait-irot.heic")
        let image = try FaceImage(contentsOfFile: path)
        #expect(image.width == 400 && image.height == 512)
        let fromData = try FaceImage(data: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(fromData.width == 400 && fromData.height == 512)
    }

    @Test("a HEIC over the pixel limit is refused before decoding")
    func heifTooLarge() {
        #expect {
            try FaceImage(contentsOfFile: TestData.fixture("astronaut-portrait-irot.heic"), maxPixels: 400 * 512 - 1)
        } throws: { error in
            guard case .imageTooLarge = error as? FaceKitError else { return false }
            return "\(error)".contains("400x512")
        }
    }

    @Test("a truncated or damaged HEIC is not an image, with the reason",
          arguments: [0.5, 0.9, 0.05, 0.002])
    func heifTruncated(keptFraction: Double) throws {
        let heic = try Data(contentsOf: URL(fileURLWithPath: TestData.fixture("astronaut-portrait-irot.heic")))
        let cut = heic.prefix(max(16, Int(Double(heic.count) * keptFraction)))
        #expect {
            try FaceImage(data: cut, name: "cut.heic")
        } throws: { error in
            guard case .notAnImage(let source, let message) = error as? FaceKitError else { return false }
            return source == "cut.heic" && message.contains("HEIF")
        }
    }

    @Test("damaged HEIC and AVIF data is not an image",
          arguments: [("astronaut-portrait-irot.heic", 0), ("astronaut.avif", 0), ("astronaut.avif", 200)])
    func heifDamaged(name: String, offset: Int) throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: TestData.fixture(name)))
        let start = try #require(data.range(of: Data("mdat".utf8))).upperBound + offset
        data.replaceSubrange(start..<(start + 400), with: (0..<400).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) })
        #expect {
            try FaceImage(data: data, name: "damaged")
        } throws: { error in
            guard case .notAnImage(_, let message) = error as? FaceKitError else { return false }
            return message.contains("HEIF")
        }
    }

    @Test("decodes a JPEG reduced while it stays at least the minimum width wide, upright",
          arguments: [(0, 1), (401, 1), (210, 1), (200, 2), (101, 2), (100, 4), (50, 8), (1, 8)])
    func reducedJPEG(minimumWidth: Int, reduction: Int) throws {
        // Stored 512x400, upright 400x512: the reduction follows the upright width.
        let image = try FaceImage(
            contentsOfFile: TestData.fixture("astronaut-portrait-exif6.jpg"), maxPixels: FaceImage.defaultMaxPixels,
            minimumWidth: minimumWidth)
        #expect(image.reduction == reduction)
        #expect(image.width == 400 / reduction && image.height == 512 / reduction)
        #expect(image.fullSize == (400, 512))
    }

    @Test("decodes formats other than JPEG at full size whatever the minimum width",
          arguments: ["astronaut.png", "astronaut.webp", "astronaut.avif", "astronaut-portrait-irot.heic"])
    func reducedOtherFormats(name: String) throws {
        let image = try FaceImage(
            contentsOfFile: TestData.fixture(name), maxPixels: FaceImage.defaultMaxPixels, minimumWidth: 10)
        #expect(image.reduction == 1 && image.height == 512)
    }

    @Test("a reduced decode still checks the full size against the pixel limit")
    func reducedTooLarge() {
        #expect(throws: FaceKitError.self) {
            try FaceImage(
                contentsOfFile: TestData.fixture("astronaut-3072x1536.jpg"), maxPixels: 3072 * 1536 - 1,
                minimumWidth: 100)
        }
    }

    @Test("reduced coordinates map back to the centre of the pixels they cover")
    func fullSizeMapping() throws {
        let image = try FaceImage(
            contentsOfFile: TestData.fixture("astronaut-3072x1536.jpg"), maxPixels: FaceImage.defaultMaxPixels,
            minimumWidth: 700)
        #expect(image.reduction == 4 && image.width == 768)
        #expect(image.fullSizePoint(CGPoint(x: 0, y: 10)) == CGPoint(x: 1.5, y: 41.5))
        let box = image.fullSizeBox(CGRect(x: 10, y: 20, width: 30, height: 40))
        #expect(box == CGRect(x: 40, y: 80, width: 120, height: 160))
        let full = try FaceImage(contentsOfFile: TestData.fixture("astronaut.jpg"))
        #expect(full.reduction == 1 && full.fullSizePoint(CGPoint(x: 3, y: 4)) == CGPoint(x: 3, y: 4))
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

    @Test("a named pipe is unreadable and is refused without being opened, which would block")
    func namedPipe() throws {
        let folder = NSTemporaryDirectory() + "facekit-fifo-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pipe = try NamedPipe(path: folder + "/x.jpg")
        defer { pipe.stop() }
        #expect {
            try FaceImage(contentsOfFile: pipe.path)
        } throws: { error in
            guard case .unreadableFile(let path, let reason) = error as? FaceKitError else { return false }
            return path == pipe.path && reason.contains("named pipe")
        }
        #expect(!pipe.wasOpened, "the pipe was opened")
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
