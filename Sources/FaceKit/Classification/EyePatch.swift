import Foundation

/// A grey patch of one eye, aligned by the face's landmarks: centred midway between the eye's two
/// corners, turned so that the face's eye axis is horizontal, its size a multiple of the eye's
/// corner-to-corner width (so a patch looks the same whatever the face's size and roll). The
/// subject's left eye is mirrored, so both eyes look alike: outer corner on the left.
///
/// The eye-state network reads one (``EyeStateModel``).
package enum EyePatch {
    /// The patch of `eye`, `width` x `height` pixels covering `widthInEyes` x `heightInEyes` eye
    /// widths, rows packed; `nil` when the eye's points are degenerate. `shape` is in full-size
    /// coordinates of the image `image` was decoded from.
    package static func cut(
        _ eye: EyeFeatures.Eye, shape: FaceShape, in image: FaceImage, width: Int, height: Int, widthInEyes: Double,
        heightInEyes: Double
    ) throws(FaceKitError) -> [UInt8]? {
        let points = (eye == .left ? shape.leftEye : shape.rightEye).map(image.decodedPoint)
        guard let axis = shape.eyeAxis else { return nil }
        let eyeWidth = points[0].distance(to: points[3])
        guard eyeWidth > 0, eyeWidth.isFinite else { return nil }
        let centre = points[0].interpolated(to: points[3], fraction: 0.5)
        let across = (eye == .left ? axis * -1 : axis) * (widthInEyes * eyeWidth / Double(width))
        let down = axis.perpendicularClockwise * (heightInEyes * eyeWidth / Double(height))
        let origin = centre - across * (Double(width - 1) / 2) - down * (Double(height - 1) / 2)
        return try image.grayPatch(affine: [across.x, down.x, origin.x, across.y, down.y, origin.y], width: width, height: height)
    }
}
