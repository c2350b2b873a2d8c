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
        try processWithSize(decodedImage(contentsOfFile: path, maxPixels: maxPixels))
    }

    /// The image file at `path` decoded as ``process(contentsOfFile:maxPixels:)`` decodes it (no
    /// larger than these options need), for ``processWithSize(_:)``: the two halves of
    /// ``processWithSize(contentsOfFile:maxPixels:)``, for a caller that decodes one photo while
    /// another is analysed. It only reads the options: any thread may call it, while this
    /// detector is busy too.
    package func decodedImage(contentsOfFile path: String, maxPixels: Int = FaceImage.defaultMaxPixels)
        throws(FaceKitError) -> FaceImage
    {
        try FaceImage(contentsOfFile: path, maxPixels: maxPixels, minimumWidth: minimumDecodeWidth)
    }

    /// The faces in an image ``decodedImage(contentsOfFile:maxPixels:)`` decoded, with its
    /// full size and reduction (see ``processWithSize(contentsOfFile:maxPixels:)``).
    package func processWithSize(_ image: FaceImage) throws(FaceKitError)
        -> (faces: [Face], width: Int, height: Int, reduction: Int)
    {
        let size = image.fullSize
        return (try process(image), size.width, size.height, image.reduction)
    }
}
