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

    @Test("a 16-bit PNG reads as the 8-bit file it was made from: its samples taken as encoded, not as linear light")
    func sixteenBitPNG() throws {
        // libpng 1.6.48 (Debian 13) gamma-encoded this file's samples for 8-bit output, 40 grey
        // levels brighter on average; the file keeps the 8-bit one's ICC profile and no gAMA.
        let sixteen = try FaceImage(contentsOfFile: TestData.fixture("astronaut-16bit.png")).pixels()
        let eight = try FaceImage(contentsOfFile: TestData.fixture("astronaut.png")).pixels()
        #expect(sixteen.count == eight.count)
        let largest = zip(sixteen, eight).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(largest <= 1, "a sample differs by \(largest)")
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

    /// Tests/Fixtures/astronaut.jpg damaged as files are damaged in the wild.
    enum DamagedJPEG: String, CaseIterable {
        case cutInHalfWithEndMarker, zeroedMiddle

        func data() throws -> Data {
            let jpeg = try Data(contentsOf: URL(fileURLWithPath: TestData.fixture("astronaut.jpg")))
            switch self {
            case .cutInHalfWithEndMarker:
                return jpeg.prefix(jpeg.count / 2) + Data([0xFF, 0xD9])
            case .zeroedMiddle:
                var damaged = jpeg
                let start = jpeg.count / 3
                damaged.replaceSubrange(start..<(start + jpeg.count / 4), with: Data(count: jpeg.count / 4))
                return damaged
            }
        }
    }

    @Test("a JPEG whose coded data is damaged is corrupt image data, read from a file or memory",
          arguments: DamagedJPEG.allCases)
    func damagedJPEG(damage: DamagedJPEG) throws {
        let data = try damage.data()
        let path = NSTemporaryDirectory() + "facekit-\(damage.rawValue)-\(UUID().uuidString).jpg"
        try data.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        for decode in [{ try FaceImage(contentsOfFile: path) }, { try FaceImage(data: data, name: path) }] {
            #expect {
                try decode()
            } throws: { error in
                guard case .notAnImage(let source, let message) = error as? FaceKitError else { return false }
                return source == path && message.hasPrefix("corrupt image data")
            }
        }
        #expect(throws: FaceKitError.self) {
            try FaceImage(contentsOfFile: path, maxPixels: FaceImage.defaultMaxPixels, minimumWidth: 100)
        }
    }

    @Test("a JPEG too small for the size its header claims is refused before it is decoded")
    func implausibleJPEGSize() throws {
        var jpeg = try Data(contentsOf: URL(fileURLWithPath: TestData.fixture("astronaut.jpg")))
        // The frame header (SOF0) holds the height and width, big-endian, 5 bytes after its marker.
        let sof = try #require(jpeg.firstRange(of: Data([0xFF, 0xC0]))).lowerBound
        jpeg.replaceSubrange((sof + 5)..<(sof + 9), with: [0x23, 0x28, 0x23, 0x28])   // 9000 x 9000
        #expect {
            try FaceImage(data: jpeg, name: "bomb.jpg")
        } throws: { error in
            guard case .notAnImage(_, let message) = error as? FaceKitError else { return false }
            return message.contains("\(jpeg.count) bytes cannot hold 9000x9000 pixels")
        }
    }

    @Test("a JPEG comes out upright for each of the 8 EXIF orientations, as the orientation says",
          arguments: 1...8)
    func everyExifOrientation(orientation: UInt8) throws {
        // The fixture is stored 512x400 with orientation 6; its IFD0 entry is rewritten.
        let original = try Data(contentsOf: URL(fileURLWithPath: TestData.fixture("astronaut-portrait-exif6.jpg")))
        func withOrientation(_ value: UInt8) throws -> Data {
            var data = original
            let bigEndian = Data([0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06])
            let littleEndian = Data([0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x06, 0x00])
            if let entry = data.firstRange(of: bigEndian) {
                data[entry.lowerBound + 9] = value
            } else {
                data[try #require(data.firstRange(of: littleEndian)).lowerBound + 8] = value
            }
            return data
        }
        let stored = try FaceImage(data: withOrientation(1))
        #expect(stored.width == 512 && stored.height == 400)
        let s = try stored.pixels(format: .gray8)
        let (w, h) = (stored.width, stored.height)
        // Where each upright pixel (x, y) comes from in the stored image, per the EXIF spec.
        let source: (Int, Int) -> (Int, Int) =
            switch orientation {
            case 1: { x, y in (x, y) }
            case 2: { x, y in (w - 1 - x, y) }
            case 3: { x, y in (w - 1 - x, h - 1 - y) }
            case 4: { x, y in (x, h - 1 - y) }
            case 5: { x, y in (y, x) }
            case 6: { x, y in (y, h - 1 - x) }
            case 7: { x, y in (w - 1 - y, h - 1 - x) }
            default: { x, y in (w - 1 - y, x) }
            }
        let upright = try FaceImage(data: withOrientation(orientation))
        let quarterTurn = orientation >= 5
        #expect(upright.width == (quarterTurn ? h : w) && upright.height == (quarterTurn ? w : h))
        let u = try upright.pixels(format: .gray8)
        var mismatches = 0
        for y in 0..<upright.height {
            for x in 0..<upright.width {
                let (sx, sy) = source(x, y)
                if u[y * upright.width + x] != s[sy * w + sx] { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
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
