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

    @Test("a WebM of two damaged VP8 streams reads as frames of its declared size, damage named, then ends")
    func twoDamagedVP8Streams() throws {
        // OpenCV's FFmpeg backend converted its frames from a buffer sized for the stream's coded
        // size, smaller than the damaged frame: a read past the buffer (ASan: 6,912 bytes). The
        // reader now converts each frame from its own planes at its own size.
        let path = Self.folder + "/video/two-damaged-vp8-streams.webm"
        var video: OpaquePointer?
        let opened = NativeCall { fk_video_open(path, 0, &video, $0) }
        try #require(opened.status == FK_OK.code, "\(opened.message)")
        defer { fk_video_free(video) }
        var info = fk_video_info()
        #expect(NativeCall { fk_video_get_info(video, &info, $0) }.status == FK_OK.code)
        #expect(info.width == 64 && info.height == 36)
        var frames = 0
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
            #expect(width == info.width && height == info.height, "frame \(index)")
            frames += 1
        }
        #expect(frames >= 1 && frames < 100)
    }
}
