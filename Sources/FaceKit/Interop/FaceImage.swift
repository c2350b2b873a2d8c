import Foundation
internal import CFaceKit

/// A decoded, upright image ready for analysis, like ML Kit's `VisionImage`.
///
/// Decoding happens once, at initialisation: EXIF orientation is applied (a portrait phone photo
/// stored sideways comes out upright, and every coordinate FaceKit reports refers to the upright
/// image), grey images are expanded, alpha is dropped and 16-bit samples become 8-bit.
///
/// ```swift
/// let image = try FaceImage(contentsOfFile: "group.jpg")
/// print(image.width, image.height)   // 1024 683
/// ```
public struct FaceImage: Sendable {
    /// Larger images are refused before decoding: 100 megapixels, about 300 MB decoded.
    public static let defaultMaxPixels = 100_000_000

    /// Pixel layouts accepted by ``init(pixels:width:height:bytesPerRow:format:)``.
    public enum PixelFormat: Int32, Sendable {
        case gray8 = 0, rgb8, bgr8, rgba8, bgra8
    }

    let handle: NativeImage
    public let width: Int
    public let height: Int

    /// Reads and decodes an image file (JPEG, PNG, BMP, TIFF, WebP). Runs `fk_image_create_from_file`.
    public init(contentsOfFile path: String, maxPixels: Int = FaceImage.defaultMaxPixels) throws(FaceKitError) {
        var pointer: OpaquePointer?
        try callNative(subject: path) { fk_image_create_from_file(path, Int64(maxPixels), &pointer, $0) }
        try self.init(taking: pointer!, subject: path)
    }

    /// Decodes an encoded image held in memory. `name` is used in error messages.
    public init(data: Data, name: String = "<data>", maxPixels: Int = FaceImage.defaultMaxPixels)
        throws(FaceKitError)
    {
        var pointer: OpaquePointer?
        // Data.withUnsafeBytes is untyped-rethrows, so the typed error is carried out by hand.
        let failure = data.withUnsafeBytes { raw -> FaceKitError? in
            let bytes = raw.bindMemory(to: UInt8.self)
            do throws(FaceKitError) {
                try callNative(subject: name) {
                    fk_image_create_from_encoded(bytes.baseAddress, bytes.count, Int64(maxPixels), &pointer, $0)
                }
                return nil
            } catch { return error }
        }
        if let failure { throw failure }
        try self.init(taking: pointer!, subject: name)
    }

    /// Copies raw 8-bit pixels (rows top first, `bytesPerRow` bytes apart) into a new image.
    public init(pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int, format: PixelFormat)
        throws(FaceKitError)
    {
        let channels = [PixelFormat.gray8: 1, .rgb8: 3, .bgr8: 3, .rgba8: 4, .bgra8: 4][format]!
        guard width > 0, height > 0, bytesPerRow >= width * channels,
            pixels.count >= bytesPerRow * (height - 1) + width * channels
        else {
            throw .invalidOption(
                name: "pixels", reason: "buffer of \(pixels.count) bytes does not hold \(width)x\(height) pixels")
        }
        var pointer: OpaquePointer?
        try callNative(subject: "<pixels>") {
            fk_image_create_from_pixels(
                pixels.bindMemory(to: UInt8.self).baseAddress, Int32(width), Int32(height), Int32(bytesPerRow),
                format.rawValue, &pointer, $0)
        }
        try self.init(taking: pointer!, subject: "<pixels>")
    }

    /// Takes ownership of a shim image.
    init(taking pointer: OpaquePointer, subject: String) throws(FaceKitError) {
        handle = NativeImage(pointer)
        var w: Int32 = 0
        var h: Int32 = 0
        try callNative(subject: subject) { fk_image_get_size(pointer, &w, &h, $0) }
        width = Int(w)
        height = Int(h)
    }
}

/// Owns one `fk_image`. The shim documents images as safe to share between threads for reading,
/// and nothing mutates one after creation.
final class NativeImage: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { fk_image_free(pointer) }
}
