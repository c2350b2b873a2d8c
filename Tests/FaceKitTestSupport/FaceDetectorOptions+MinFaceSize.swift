import FaceKit

extension FaceDetectorOptions {
    /// The default options but for `minFaceSize`, for tests of what is computed from it.
    ///
    /// ```swift
    /// plan.passes(imageWidth: 1000, imageHeight: 667, options: .minFaceSize(0.1))
    /// ```
    public static func minFaceSize(_ minFaceSize: Double) -> FaceDetectorOptions {
        var options = FaceDetectorOptions()
        options.minFaceSize = minFaceSize
        return options
    }
}
