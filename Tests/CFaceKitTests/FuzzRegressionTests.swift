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
}
