import Foundation

/// Where the 68-point model looks for a face that may be tilted: its seed box, and how far the
/// face is rolled in the image.
///
/// dlib's shape predictor was trained on mostly upright faces and reads only an axis-aligned
/// box: on the astronaut photo turned 25 degrees its eye line came out at 19, and at 35 degrees
/// at 4 (YuNet's keypoints, placed as if the face were upright, say less still). A face whose
/// first points are rolled more than ``minimumRoll`` is therefore placed again from an upright
/// crop: a square around it, twice the seed box's side, resampled along that eye line
/// (``crop(of:)``); the model runs on it, and its points are turned back (``imagePoint(_:)``).
struct UprightSeed: Sendable {
    /// Rolls below this (degrees) are left to the model: up to about 18 degrees its first points
    /// already follow the tilt (the astronaut turned 15 degrees reads 15.5), and turning faces from
    /// 12 degrees gave one new failure on the Helen development photos (docs/accuracy.md).
    static let minimumRoll = 20.0

    /// The seed box, in the image's pixels as decoded.
    var box: CGRect
    /// The eye line's angle in the image, in radians, clockwise on screen (y down).
    var roll: Double

    init(box: CGRect, roll: Double) {
        self.box = box
        self.roll = roll
    }

    /// Whether the face is rolled enough to be turned upright first.
    var needsTurning: Bool { abs(roll) * 180 / .pi > Self.minimumRoll }

    /// Side, in pixels, of the upright crop: the seed box with half its side around it.
    var cropSide: Int { max(8, Int((2 * max(box.width, box.height)).rounded(.up))) }

    /// The affine map from the crop's pixels to the image's (as ``FaceImage/warped(affine:width:height:)``
    /// takes it): the crop's x axis along the eye line, its centre at the seed box's.
    var cropToImage: [Double] {
        let (c, s) = (cos(roll), sin(roll))
        let half = Double(cropSide) / 2
        let (cx, cy) = (Double(box.midX), Double(box.midY))
        // image = centre + R (crop - half), R = [c -s; s c].
        return [c, -s, cx - c * half + s * half, s, c, cy - s * half - c * half]
    }

    /// The seed box in the crop: the same size, centred.
    var boxInCrop: CGRect {
        let half = Double(cropSide) / 2
        return CGRect(
            x: half - Double(box.width) / 2, y: half - Double(box.height) / 2, width: box.width, height: box.height)
    }

    /// A point of the crop in the image's pixels.
    func imagePoint(_ point: CGPoint) -> CGPoint { point.applying(affine: cropToImage) }

    /// The upright crop of `image` that the model reads.
    func crop(of image: FaceImage) throws(FaceKitError) -> FaceImage {
        try image.warped(affine: cropToImage, width: cropSide, height: cropSide)
    }
}
