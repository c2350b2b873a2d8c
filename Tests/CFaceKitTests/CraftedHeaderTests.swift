import CFaceKit
import FaceKitTestSupport
import Foundation
import Testing

/// Image files crafted so that a header read of FaceKit's own and the decoder would disagree on
/// the picture's size, made here from the fixtures: the size the pixel limit sees must be the
/// size that is decoded.
@Suite("CFaceKit: crafted image headers")
struct CraftedHeaderTests {
    /// `jpeg` with a TEM marker (FF01, which has no length) after its start, then an APP15
    /// segment whose payload holds a frame header of 1x4 pixels exactly where a reader that takes
    /// TEM for a segment with a length lands (0xFFEF bytes on): such a reader saw a 1x4 frame in
    /// front of the real one, and decoded a 16000x16000 picture under any limit.
    static func withTemporaryMarker(_ jpeg: Data) -> Data {
        var out = Data([0xFF, 0xD8, 0xFF, 0x01])
        var app15 = Data([0xFF, 0xEF, 0xFF, 0xFF]) + Data(count: 0xFFFF - 2)
        // Where `2 + 2 + 0xFFEF` falls, from the file's start.
        let fake = 2 + 2 + 0xFFEF - out.count
        let frame: [UInt8] = [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x04, 0x00, 0x01, 0x03, 1, 0x11, 0, 2, 0x11, 1, 3]
        app15.replaceSubrange(fake..<fake + frame.count, with: frame)
        out += app15
        out += jpeg.dropFirst(2)
        return out
    }

    /// The same picture as the Windows BMP `bmp` (24 bits, BITMAPINFOHEADER), with OS/2 1.x's
    /// 12-byte BITMAPCOREHEADER, whose sides are 16-bit.
    static func os2(_ bmp: Data) throws -> Data {
        let bytes = [UInt8](bmp)
        func le32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        try #require(le32(14) == 40 && bytes[28] == 24, "a 24-bit BMP with BITMAPINFOHEADER")
        let width = le32(18), height = le32(22), pixels = bytes[le32(10)...]
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func le32(value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16) }
        var out: [UInt8] = Array("BM".utf8) + le32(value: 26 + pixels.count) + [0, 0, 0, 0] + le32(value: 26)
        out += le32(value: 12) + le16(width) + le16(height) + le16(1) + le16(24)
        return Data(out + pixels)
    }

    /// Decodes `bytes` with a limit of `maxPixels`.
    static func decode(_ bytes: Data, maxPixels: Int64) -> (NativeCall, OpaquePointer?) {
        var image: OpaquePointer?
        let call = NativeCall { error in
            bytes.withUnsafeBytes { fk_image_create_from_encoded($0.bindMemory(to: UInt8.self).baseAddress, $0.count, maxPixels, &image, error) }
        }
        return (call, image)
    }

    /// The image's BGR pixels, rows packed.
    static func pixels(_ image: OpaquePointer?) -> [UInt8] {
        var width: Int32 = 0, height: Int32 = 0
        _ = NativeCall { fk_image_get_size(image, &width, &height, $0) }
        var out = [UInt8](repeating: 0, count: Int(width * height * 3))
        _ = NativeCall { fk_image_copy_pixels(image, Int32(FK_PIXEL_BGR8.rawValue), &out, out.count, width * 3, $0) }
        return out
    }

    @Test("a JPEG with a TEM marker before its frame: the limit sees libjpeg's size, 512x512, not a fake 1x4")
    func temporaryMarker() throws {
        let crafted = Self.withTemporaryMarker(try Data(contentsOf: URL(fileURLWithPath: TestData.fixture("astronaut.jpg"))))
        let (refused, none) = Self.decode(crafted, maxPixels: 1000)
        StatusTests.expectStatus(FK_IMAGE_TOO_LARGE, refused, "TEM")
        #expect(refused.message == "512x512 pixels is over the limit of 1000")
        #expect(none == nil)

        // libjpeg reads the file: it is a JPEG, and decodes to the picture without the markers.
        let (read, image) = Self.decode(crafted, maxPixels: 1_000_000)
        defer { fk_image_free(image) }
        try #require(read.status == FK_OK.code, "\(read.message)")
        let (_, plain) = Self.decode(try Data(contentsOf: URL(fileURLWithPath: TestData.fixture("astronaut.jpg"))), maxPixels: 1_000_000)
        defer { fk_image_free(plain) }
        #expect(Self.pixels(image) == Self.pixels(plain))
    }

    /// OpenCV's OS/2 branch never marks 24-bit as colour, so FaceKit reads OS/2 bitmaps with
    /// IMREAD_COLOR (not ANYCOLOR, which gave grey): the picture is the Windows BMP's, pixel for
    /// pixel.
    @Test("an OS/2 BMP is measured at its size, 512x512, not refused as 33554944x1572865, and read as the Windows BMP")
    func os2Bitmap() throws {
        let windows = try Data(contentsOf: URL(fileURLWithPath: TestData.fixture("astronaut.bmp")))
        let crafted = try Self.os2(windows)
        let (refused, none) = Self.decode(crafted, maxPixels: 1000)
        StatusTests.expectStatus(FK_IMAGE_TOO_LARGE, refused, "OS/2 BMP")
        #expect(refused.message == "512x512 pixels is over the limit of 1000", "once 33554944x1572865")
        #expect(none == nil)

        let (read, image) = Self.decode(crafted, maxPixels: 1_000_000)
        defer { fk_image_free(image) }
        try #require(read.status == FK_OK.code, "\(read.message)")
        var width: Int32 = 0, height: Int32 = 0
        _ = NativeCall { fk_image_get_size(image, &width, &height, $0) }
        #expect(width == 512 && height == 512)
        let (_, plain) = Self.decode(windows, maxPixels: 1_000_000)
        defer { fk_image_free(plain) }
        #expect(Self.pixels(image) == Self.pixels(plain), "the OS/2 bitmap read in colour, as the Windows one")
    }
}
