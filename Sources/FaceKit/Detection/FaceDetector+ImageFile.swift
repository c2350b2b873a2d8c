import Foundation

extension FaceDetector {
    /// The faces in the image file at `path`, as ``process(contentsOfFile:maxPixels:)`` finds them,
    /// with the size of the upright image they were found in: what a row of `facekit analyze`
    /// says of its photo.
    ///
    /// A JPEG decoded reduced (see ``process(contentsOfFile:maxPixels:)``) gives its size as
    /// `reduction` times the decoded one, which may exceed the full size by up to `reduction - 1`
    /// pixels (libjpeg rounds a reduced size up): a caller wanting the exact size reads it from the
    /// file's header when `reduction` is above 1.
    ///
    /// ```swift
    /// let (faces, width, height, _) = try detector.processWithSize(contentsOfFile: "IMG_0042.jpg")
    /// ```
    package func processWithSize(contentsOfFile path: String, maxPixels: Int = FaceImage.defaultMaxPixels)
        throws(FaceKitError) -> (faces: [Face], width: Int, height: Int, reduction: Int)
    {
        let image = try FaceImage(contentsOfFile: path, maxPixels: maxPixels, minimumWidth: minimumDecodeWidth)
        let size = image.fullSize
        return (try process(image), size.width, size.height, image.reduction)
    }
}
