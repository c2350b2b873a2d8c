import FaceKit

/// Chooses the scale at which an image is searched, from the smallest face wanted.
///
/// dlib's detectors (HOG and MMOD CNN alike) find faces whose box is at least about 80 px wide.
/// Searching at `scale` makes the smallest wanted face just that wide: photos of large faces are
/// searched at a reduced size (faster), small photos are enlarged so small faces are still found.
///
/// ```swift
/// DlibSearchScale.scale(imageWidth: 3000, imageHeight: 2000, options: FaceDetectorOptions())  // 80 / 240 ≈ 0.33
/// ```
enum DlibSearchScale {
    /// Smallest face box the detectors find, in pixels.
    static let detectorWindow = 80.0
    /// Enlarging beyond this costs much and finds little (the face has no detail left).
    static let maxUpscale = 4.0
    /// Enlarged images are capped at this many pixels to bound time and memory.
    static let maxSearchPixels = 36_000_000.0
    /// The shim accepts scales down to 0.05.
    static let minScale = 0.05

    /// The scale for an image of this size and the smallest face `options` ask for
    /// (``FaceDetectorOptions/smallestFaceBox(imageWidth:)``, the same box as YuNet's search).
    static func scale(imageWidth: Int, imageHeight: Int, options: FaceDetectorOptions) -> Double {
        let smallestBox = options.smallestFaceBox(imageWidth: imageWidth)
        var scale = detectorWindow / smallestBox
        if scale > 1 {
            let pixels = Double(imageWidth) * Double(imageHeight)
            scale = min(scale, maxUpscale, max(1, (maxSearchPixels / pixels).squareRoot()))
        }
        return max(scale, minScale)
    }
}
