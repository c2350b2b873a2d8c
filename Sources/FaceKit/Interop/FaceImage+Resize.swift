internal import CFaceKit
import Foundation

extension FaceImage {
    /// Reads an image file for display at about `width` pixels wide: a JPEG is decoded at 1/2,
    /// 1/4 or 1/8 of its size when it stays at least `width` pixels wide (several times faster
    /// than a full decode), other formats at full size. Coordinates given to
    /// ``resized(region:width:height:)`` and `fullSize` stay those of the full-size image, so
    /// boxes from a table of faces apply unchanged.
    ///
    /// ```swift
    /// let photo = try FaceImage(contentsOfFile: "48mp.jpg", displayWidth: 640)
    /// let thumbnail = try photo.resized(width: 320, height: 240)
    /// ```
    public init(contentsOfFile path: String, displayWidth width: Int, maxPixels: Int = FaceImage.defaultMaxPixels)
        throws(FaceKitError)
    {
        try self.init(contentsOfFile: path, maxPixels: maxPixels, minimumWidth: width)
    }

    /// The size of the full-size image in pixels (to within a few pixels for a JPEG decoded at a
    /// reduced size: libjpeg rounds the reduced size up).
    public var fullSizeWidth: Int { fullSize.width }
    public var fullSizeHeight: Int { fullSize.height }

    /// `region` of the image (full-size pixels; the whole image when `nil`; clipped to the image,
    /// and it must keep at least one pixel) scaled to `width` x `height` (1 ... 8192): by pixel
    /// area when shrinking, bilinearly when enlarging. The result is a new image of that size.
    /// Runs `fk_image_resize`.
    public func resized(region: CGRect? = nil, width: Int, height: Int) throws(FaceKitError) -> FaceImage {
        let whole = CGRect(x: 0, y: 0, width: Double(fullSize.width), height: Double(fullSize.height))
        var cut = region ?? whole
        if reduction > 1 {
            let r = Double(reduction)
            cut = CGRect(x: cut.minX / r, y: cut.minY / r, width: cut.width / r, height: cut.height / r)
        }
        var pointer: OpaquePointer?
        try callNative(subject: "image") {
            fk_image_resize(handle.pointer, fk_rect(cut), Int32(clamping: width), Int32(clamping: height), &pointer, $0)
        }
        return try FaceImage(taking: pointer!, subject: "image")
    }
}
