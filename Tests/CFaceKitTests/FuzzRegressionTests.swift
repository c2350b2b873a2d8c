import CFaceKit
import FaceKitTestSupport
import Foundation
import Testing

/// The inputs scripts/fuzz found that the shim mishandled (CInterop/fuzz/regressions/), each
/// called through the C API as its harness calls it, with what the fix makes of it.
@Suite("CFaceKit: inputs the fuzzer found")
struct FuzzRegressionTests {
    static let folder = TestData.repository.appendingPathComponent("CInterop/fuzz/regressions").path

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
    }

    @Test("a PNG header whose sides' product overflows 64 bits is too large, not a wrapped negative size")
    func pngSidesOverflow() throws {
        // Both sides 0xCACACACA (3402287818): their product wrapped to a negative number, which
        // passed the pixel limit (and is undefined behaviour).
        let png = try Self.bytes("image/png-sides-overflow.png")
        var image: OpaquePointer?
        let call = NativeCall { fk_image_create_from_encoded(png, png.count, 4_000_000, &image, $0) }
        StatusTests.expectStatus(FK_IMAGE_TOO_LARGE, call, "png-sides-overflow.png")
        #expect(call.message == "3402287818x3402287818 pixels is over the limit of 4000000")
        #expect(image == nil)
    }

    /// The size the pixel limit sees for `bytes` (under a limit of 1 pixel, the refusal names it)
    /// and the size that decodes under no limit.
    static func limitAndDecodedSize(_ bytes: [UInt8]) throws -> (refused: String, width: Int32, height: Int32) {
        var none: OpaquePointer?
        let refused = NativeCall { fk_image_create_from_encoded(bytes, bytes.count, 1, &none, $0) }
        StatusTests.expectStatus(FK_IMAGE_TOO_LARGE, refused, "under a limit of 1 pixel")
        #expect(none == nil)
        var image: OpaquePointer?
        let read = NativeCall { fk_image_create_from_encoded(bytes, bytes.count, 0, &image, $0) }
        try #require(read.status == FK_OK.code, "\(read.message)")
        defer { fk_image_free(image) }
        var width: Int32 = 0, height: Int32 = 0
        _ = NativeCall { fk_image_get_size(image, &width, &height, $0) }
        return (refused.message, width, height)
    }

    @Test("the header harness's seeds: a TEM marker after a JPEG's start and an OS/2 bitmap, measured as they decode")
    func headerSeeds() throws {
        // FF01 (TEM) has no length: libjpeg passes over it, and so does the size the limit sees.
        let jpeg = try Self.limitAndDecodedSize(try Self.bytes("header/tem-marker-16x12.jpg"))
        #expect(jpeg.refused == "16x12 pixels is over the limit of 1")
        #expect(jpeg.width == 16 && jpeg.height == 12)
        // OS/2 1.x's 12-byte header has 16-bit sides: once read as 32-bit ones (786448x1572865).
        let os2 = try Self.limitAndDecodedSize(try Self.bytes("header/os2-core-header-16x12.bmp"))
        #expect(os2.refused == "16x12 pixels is over the limit of 1")
        #expect(os2.width == 16 && os2.height == 12)
    }

    @Test("a HEIC whose ispe box declares 512x44 over a coded 512x512 picture is refused, not decoded past what the limit saw")
    func heifDeclaringLessThanItCodes() throws {
        // libheif 1.15 decodes the coded size without comparing it with ispe: a file declaring
        // 1x1 would pass any pixel limit and decode at whatever size it codes. libheif 1.23
        // refuses it itself, as over its limits, while decoding: corrupt all the same.
        let heic = try Self.bytes("header/ispe-512x44-coded-512x512.heic")
        var limited: OpaquePointer?
        let underLimit = NativeCall { fk_image_create_from_encoded(heic, heic.count, 512 * 100, &limited, $0) }
        StatusTests.expectStatus(FK_NOT_AN_IMAGE, underLimit, "declared 512x44 under a limit of 51,200 pixels")
        #expect(underLimit.message.hasPrefix("corrupt HEIF: its header declares 512x44 pixels, its picture "))
        #expect(limited == nil)
        var image: OpaquePointer?
        let unlimited = NativeCall { fk_image_create_from_encoded(heic, heic.count, 0, &image, $0) }
        StatusTests.expectStatus(FK_NOT_AN_IMAGE, unlimited, "under no limit")
        #expect(image == nil)
    }

    @Test("a WebM of two damaged VP8 streams reads as frames of their own size, every pixel readable, then ends")
    func twoDamagedVP8Streams() throws {
        // OpenCV's FFmpeg backend converted its frames from a buffer sized for the stream's coded
        // size, smaller than the damaged frame: a read past the buffer (ASan: 6,912 bytes). The
        // reader now converts each frame from its own planes at its own size, and hands it out
        // at that size (a size that changes on the way is a stream's right: issue 55), here a
        // frame of 64x1 in a stream that opens at 64x36.
        let path = Self.folder + "/video/two-damaged-vp8-streams.webm"
        var video: OpaquePointer?
        let opened = NativeCall { fk_video_open(path, 0, &video, $0) }
        try #require(opened.status == FK_OK.code, "\(opened.message)")
        defer { fk_video_free(video) }
        var info = fk_video_info()
        #expect(NativeCall { fk_video_get_info(video, &info, $0) }.status == FK_OK.code)
        #expect(info.width == 64 && info.height == 36)
        var frames = 0
        var sizes: [String] = []
        while frames < 100 {
            var image: OpaquePointer?
            var index: Int64 = 0
            var timestamp = 0.0
            var ended: Int32 = 0
            let call = NativeCall { fk_video_next(video, 1, &image, &index, &timestamp, &ended, $0) }
            try #require(call.status == FK_OK.code, "\(call.message)")
            if ended != 0 { break }
            defer { fk_image_free(image) }
            var width: Int32 = 0, height: Int32 = 0
            _ = NativeCall { fk_image_get_size(image, &width, &height, $0) }
            sizes.append("\(width)x\(height)")
            try #require(width > 0 && height > 0, "frame \(index)")
            var pixels = [UInt8](repeating: 0, count: Int(width * height * 3))
            let copied = NativeCall { fk_image_copy_pixels(image, Int32(FK_PIXEL_BGR8.rawValue), &pixels, pixels.count, width * 3, $0) }
            #expect(copied.status == FK_OK.code, "frame \(index): \(copied.message)")
            frames += 1
        }
        #expect(frames >= 1 && frames < 100)
        #expect(sizes.contains("64x1"), "the damaged frame at its own size: \(sizes)")
    }
}
