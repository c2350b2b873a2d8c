import Foundation

import FaceKit

// What the training tools ask of a detector beyond analysis: another search plan, the 68 points
// from a chosen seed box, the head model and head pose from other models. They live here, with
// the tools, and reach FaceKit's detector through its `package` seams (a finder factory, the
// shape placement, the head-pose solver).
extension FaceDetector {
    /// A YuNet detector that searches as `plan` says rather than as the performance mode does,
    /// for choosing the modes' plans (`facekit-train detection-threshold`).
    ///
    /// ```swift
    /// let finer = try FaceDetector(options: options, models: models, plan: SearchPlan(smallestFace: 32, mirrored: true))
    /// ```
    package convenience init(options: FaceDetectorOptions, models: ModelLocator, plan: SearchPlan)
        throws(FaceKitError)
    {
        try self.init(options: options, models: models, finder: Self.yunetFinder(plan: plan))
    }

    /// dlib's 68 points for the face in `seedBox` (pixels of the image as decoded), in
    /// full-size coordinates.
    package func shape(in image: FaceImage, seedBox: CGRect) throws(FaceKitError) -> FaceShape {
        try shapes(in: image, seedBoxes: [seedBox])[0]
    }

    /// The shipped head model: its 68 points (dlib index, x, y, z in the face frame), the focal
    /// length it assumes in image widths and its level in degrees of pitch.
    package static var headModel:
        (points: [(dlibIndex: Int, x: Double, y: Double, z: Double)], focalLengthInImageWidths: Double, levelPitchDegrees: Double)
    {
        (
            MeanFace.points.map { ($0.dlibIndex, Double($0.x), Double($0.y), Double($0.z)) },
            MeanFace.focalLengthInImageWidths, MeanFace.levelPitchDegrees
        )
    }

    /// Head pose (pitch, yaw, roll in degrees) from any 3D model of some of dlib's points, through
    /// a camera of the given focal length, levelled by `levelPitchDegrees`: for fitting and
    /// measuring the head model.
    package static func headEulerAngles(
        of shape: FaceShape, imageSize: (width: Int, height: Int),
        model: [(dlibIndex: Int, x: Double, y: Double, z: Double)], focalLengthInImageWidths: Double,
        levelPitchDegrees: Double
    ) -> (x: Double, y: Double, z: Double) {
        let angles = headEulerAngles(
            of: shape, imageSize: imageSize,
            model: model.map { MeanFace.Point(dlibIndex: $0.dlibIndex, x: Float($0.x), y: Float($0.y), z: Float($0.z)) },
            focalLengthInImageWidths: focalLengthInImageWidths, levelPitchDegrees: levelPitchDegrees)
        return (angles.x, angles.y, angles.z)
    }
}
