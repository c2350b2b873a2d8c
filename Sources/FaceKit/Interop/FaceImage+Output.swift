internal import CFaceKit
import Foundation

extension FaceImage {
    /// File extensions ``encoded(fileExtension:quality:)`` can encode, lower case.
    public static let encodableFileExtensions: Set<String> = [
        "png", "jpg", "jpeg", "jpe", "bmp", "dib", "tif", "tiff", "webp",
    ]

    /// The image encoded in the format `fileExtension` names (`"png"`, `"jpg"`, ... any case,
    /// with or without its dot). Runs `fk_image_encode`.
    ///
    /// `quality` (1 ... 100) applies to JPEG and WebP; PNG, BMP and TIFF are lossless. The image
    /// is stored upright, without the EXIF orientation it may have been read with.
    ///
    /// ```swift
    /// let png = try image.encoded(fileExtension: "png")          // lossless
    /// let jpeg = try image.encoded(fileExtension: ".JPG", quality: 92)
    /// ```
    public func encoded(fileExtension: String, quality: Int = 92) throws(FaceKitError) -> Data {
        let bare = fileExtension.hasPrefix(".") ? String(fileExtension.dropFirst()) : fileExtension
        guard Self.encodableFileExtensions.contains(bare.lowercased()) else {
            throw .invalidOption(
                name: "fileExtension",
                reason: "no image encoder for '\(fileExtension)'; use one of "
                    + Self.encodableFileExtensions.sorted().joined(separator: ", "))
        }
        guard (1...100).contains(quality) else {
            throw .invalidOption(name: "quality", reason: "\(quality) is not in 1 ... 100")
        }
        var bytes: UnsafeMutablePointer<UInt8>?
        var count = 0
        try callNative(subject: "image") {
            fk_image_encode(handle.pointer, bare, Int32(quality), &bytes, &count, $0)
        }
        defer { fk_bytes_free(bytes) }
        return Data(bytes: bytes!, count: count)
    }

    /// A copy of the pixels in `format`, rows top first and tightly packed (`width` times the
    /// format's bytes per pixel each); RGBA and BGRA get alpha 255. Runs `fk_image_copy_pixels`.
    ///
    /// ```swift
    /// let rgb = try image.pixels(format: .rgb8)   // rgb[0], rgb[1], rgb[2]: the top-left pixel
    /// ```
    public func pixels(format: PixelFormat = .rgb8) throws(FaceKitError) -> [UInt8] {
        let channels = [PixelFormat.gray8: 1, .rgb8: 3, .bgr8: 3, .rgba8: 4, .bgra8: 4][format]!
        let rowBytes = width * channels
        var result = [UInt8](repeating: 0, count: rowBytes * height)
        let failure = result.withUnsafeMutableBufferPointer { buffer -> FaceKitError? in
            do throws(FaceKitError) {
                try callNative(subject: "image") {
                    fk_image_copy_pixels(
                        handle.pointer, format.rawValue, buffer.baseAddress, buffer.count, Int32(rowBytes), $0)
                }
                return nil
            } catch { return error }
        }
        if let failure { throw failure }
        return result
    }
}

extension FaceImage {
    /// A `width` x `height` grey patch whose pixel (x, y) is the image's grey value, bilinearly
    /// interpolated, at (a0 x + a1 y + a2, a3 x + a4 y + a5) for `affine` = [a0 ... a5]; points
    /// off the image take the nearest edge pixel. Rows are packed. Runs `fk_image_sample_gray`.
    func grayPatch(affine: [Double], width: Int, height: Int) throws(FaceKitError) -> [UInt8] {
        precondition(affine.count == 6, "grayPatch: an affine map has 6 entries")
        var result = [UInt8](repeating: 0, count: width * height)
        let map = affine.map { Float($0) }
        let failure = result.withUnsafeMutableBufferPointer { buffer -> FaceKitError? in
            do throws(FaceKitError) {
                try callNative(subject: "image") {
                    fk_image_sample_gray(handle.pointer, map, Int32(width), Int32(height), buffer.baseAddress, buffer.count, $0)
                }
                return nil
            } catch { return error }
        }
        if let failure { throw failure }
        return result
    }

    /// A point of the full-size image in this image's pixels: the inverse of ``fullSizePoint(_:)``.
    func decodedPoint(_ point: CGPoint) -> CGPoint {
        guard reduction > 1 else { return point }
        let r = Double(reduction)
        return CGPoint(x: (point.x - (r - 1) / 2) / r, y: (point.y - (r - 1) / 2) / r)
    }
}
