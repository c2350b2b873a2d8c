import Foundation

/// A grey patch of the mouth, aligned by the face's landmarks: centred midway between the mouth's
/// corners (48, 54), turned so that the face's eye axis is horizontal, and a multiple of the
/// outer-eye-corner distance (36, 45) across. The eyes, not the mouth, give the scale, so a smile
/// that widens the mouth widens it in the patch too; at one eye distance the patch takes in the
/// lips, the teeth, the mouth's corners and the folds beside them.
///
/// The smile network reads one (``SmileModel``).
package enum MouthPatch {
    /// The mouth's patch, `side` pixels square covering `widthInEyeDistances` outer-eye-corner
    /// distances, rows packed; `nil` when the points are degenerate. `shape` is in full-size
    /// coordinates of the image `image` was decoded from.
    package static func cut(shape: FaceShape, in image: FaceImage, side: Int, widthInEyeDistances: Double)
        throws(FaceKitError) -> [UInt8]?
    {
        guard let axis = shape.eyeAxis else { return nil }
        let points = [36, 45, 48, 54].map { image.decodedPoint(shape.points[$0]) }
        let eyeDistance = points[0].distance(to: points[1])
        guard eyeDistance > 0, eyeDistance.isFinite, points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            return nil
        }
        let centre = points[2].interpolated(to: points[3], fraction: 0.5)
        let step = widthInEyeDistances * eyeDistance / Double(side)
        let across = axis * step
        let down = axis.perpendicularClockwise * step
        let origin = centre - across * (Double(side - 1) / 2) - down * (Double(side - 1) / 2)
        return try image.grayPatch(affine: [across.x, down.x, origin.x, across.y, down.y, origin.y], width: side, height: side)
    }
}
