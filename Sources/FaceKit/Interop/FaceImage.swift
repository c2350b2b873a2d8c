import Foundation
internal import CFaceKit

/// A decoded, upright image ready for analysis, like ML Kit's `VisionImage`.
///
/// Decoding happens once, at initialisation: the image is turned upright (a portrait phone photo
/// stored sideways comes out upright, and every coordinate FaceKit reports refers to the upright
/// image), grey images are expanded, alpha is dropped and 16-bit samples become 8-bit. A JPEG is
/// turned by its EXIF orientation; HEIC and AVIF by their own rotation and mirror properties,
/// never by EXIF, which phones write as well (applying both would turn the photo twice).
///
/// ```swift
/// let image = try FaceImage(contentsOfFile: "group.jpg")
/// print(image.width, image.height)   // 640 360
/// ```
public struct FaceImage: Sendable {
    /// Larger images are refused before decoding: 100 megapixels, about 300 MB decoded.
    public static let defaultMaxPixels = 100_000_000

    /// Pixel layouts accepted by ``init(pixels:width:height:bytesPerRow:format:)``.
    public enum PixelFormat: Int32, Sendable {
        case gray8 = 0, rgb8, bgr8, rgba8, bgra8
    }

    let handle: NativeImage
    /// The image's `fk_image` handle, for the tools' shim (CFaceKitTools, through
    /// FaceKitDatasets' Native* owners): borrowed, valid while this image lives.
    package var nativeHandle: OpaquePointer { handle.pointer }
    public let width: Int
    public let height: Int
    /// How many pixels of the full-size image one pixel of this one spans in each direction: 1,
    /// or 2, 4 or 8 for a JPEG decoded at a reduced size by
    /// ``init(contentsOfFile:maxPixels:minimumWidth:)``. Only ``FaceDetector`` sees such images.
    let reduction: Int

    /// Reads and decodes an image file (JPEG, PNG, BMP, TIFF, WebP, HEIC, AVIF), recognised by its
    /// content. `path` may hold bytes that are not UTF-8 as `FilePathEncoding` says. Runs
    /// `fk_image_create_from_file`.
    public init(contentsOfFile path: String, maxPixels: Int = FaceImage.defaultMaxPixels) throws(FaceKitError) {
        var pointer: OpaquePointer?
        try callNative(subject: path) { error in
            FilePathEncoding.withFileSystemRepresentation(path) {
                fk_image_create_from_file($0, Int64(maxPixels), &pointer, error)
            }
        }
        try self.init(taking: pointer!, subject: path)
    }

    /// Reads an image file, decoding a JPEG at 1/2, 1/4 or 1/8 of its size when it stays at least
    /// `minimumWidth` pixels wide: libjpeg then scales while decoding, several times faster and in
    /// a fraction of the memory. `width` and `height` are the decoded size and ``reduction`` the
    /// factor, so coordinates found on this image must be scaled back with ``fullSizePoint(_:)``
    /// and ``fullSizeBox(_:)``. Other formats decode at full size. Runs
    /// `fk_image_create_from_file_reduced`.
    ///
    /// ```swift
    /// let image = try FaceImage(contentsOfFile: "48mp.jpg", maxPixels: 100_000_000, minimumWidth: 2000)
    /// (image.width, image.reduction)   // (2000, 4)
    /// ```
    init(contentsOfFile path: String, maxPixels: Int, minimumWidth: Int) throws(FaceKitError) {
        var pointer: OpaquePointer?
        var reduction: Int32 = 1
        try callNative(subject: path) { error in
            FilePathEncoding.withFileSystemRepresentation(path) {
                fk_image_create_from_file_reduced(
                    $0, Int64(maxPixels), Int32(clamping: max(0, minimumWidth)), &pointer, &reduction, error)
            }
        }
        try self.init(taking: pointer!, subject: path, reduction: Int(reduction))
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

    /// Takes ownership of a shim image, decoded at 1 / `reduction` of the full size.
    init(taking pointer: OpaquePointer, subject: String, reduction: Int = 1) throws(FaceKitError) {
        handle = NativeImage(pointer)
        var w: Int32 = 0
        var h: Int32 = 0
        try callNative(subject: subject) { fk_image_get_size(pointer, &w, &h, $0) }
        width = Int(w)
        height = Int(h)
        self.reduction = reduction
    }
}

extension FaceImage {
    /// The full-size image's width and height, to within `reduction - 1` pixels (libjpeg rounds a
    /// reduced size up).
    var fullSize: (width: Int, height: Int) { (width * reduction, height * reduction) }

    /// A point in this image's pixels as a point of the full-size image: the centre of the block
    /// of `reduction` x `reduction` pixels it covers.
    func fullSizePoint(_ point: CGPoint) -> CGPoint {
        guard reduction > 1 else { return point }
        let r = Double(reduction)
        return CGPoint(x: point.x * r + (r - 1) / 2, y: point.y * r + (r - 1) / 2)
    }

    /// A box in this image's pixels as a box of the full-size image, covering the same blocks.
    func fullSizeBox(_ box: CGRect) -> CGRect {
        guard reduction > 1 else { return box }
        let r = Double(reduction)
        return CGRect(x: box.minX * r, y: box.minY * r, width: box.width * r, height: box.height * r)
    }
}

/// Owns one `fk_image`. The shim documents images as safe to share between threads for reading,
/// and nothing mutates one after creation.
final class NativeImage: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { fk_image_free(pointer) }
}
