import Foundation

// Behind @_spi(Training): facekit-train extracts its features with the runtime's own code, so
// that the model is trained on exactly what it is later given.

/// Eye-openness measurements from the 6 points dlib places around each eye.
///
/// The eye aspect ratio (Soukupová and Čech, 2016) is the lids' mean distance over the corners'
/// distance: about 0.3 for an open eye, near 0.1 for a closed one, whatever the eye's size.
@_spi(Training) public enum EyeFeatures {
    public enum Eye: Sendable { case left, right }

    public static let names = ["aspect_ratio", "lid_gap", "lid_gap_over_brow"]

    /// The features of one eye, in ``names`` order: its aspect ratio, the mean lid gap over the
    /// outer-eye-corner distance, and the lid gap over the distance from the brow to the lower
    /// lid. Only the eye's own points count, so a wink reads as one eye closed.
    public static func features(of shape: FaceShape, eye: Eye) -> [Double] {
        let points = eye == .left ? shape.leftEye : shape.rightEye
        let brow = CGPoint.mean(of: eye == .left ? shape.leftEyebrow : shape.rightEyebrow)
        let lower = points[4].interpolated(to: points[5], fraction: 0.5)
        let gap = (points[1].distance(to: points[5]) + points[2].distance(to: points[4])) / 2
        return [aspectRatio(points), gap / max(shape.interOcularDistance, 1e-9), gap / max(brow.distance(to: lower), 1e-9)]
    }

    /// (|p1 - p5| + |p2 - p4|) / (2 |p0 - p3|) for the eye's points p0...p5 in dlib's order
    /// (corner, two upper-lid points, corner, two lower-lid points).
    public static func aspectRatio(_ eye: [CGPoint]) -> Double {
        precondition(eye.count == 6, "EyeFeatures.aspectRatio needs an eye's 6 points")
        let width = eye[0].distance(to: eye[3])
        guard width > 0 else { return 0 }
        return (eye[1].distance(to: eye[5]) + eye[2].distance(to: eye[4])) / (2 * width)
    }
}
