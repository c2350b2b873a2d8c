import Foundation

/// The 68 points dlib's shape predictor places on one face, in iBUG 300-W order.
///
/// Everything FaceKit reports about a face's outline (landmarks, contours) is built from these
/// points, so they are kept together with names for each part. Left and right are the subject's:
/// in a frontal photo the subject's right eye (points 36-41) is on the image's left.
///
/// ```swift
/// let shape = FaceShape(points: predictedPoints)  // 68 points
/// shape.rightEye.count                            // 6
/// ```
package struct FaceShape: Sendable, Equatable {
    /// Jaw line from the subject's right ear, through the chin (8), to the left ear.
    package static let jawIndices = 0...16
    /// Subject's right eyebrow, from its outer end to its inner end.
    package static let rightEyebrowIndices = 17...21
    /// Subject's left eyebrow, from its inner end to its outer end.
    package static let leftEyebrowIndices = 22...26
    /// Nose bridge, from between the eyes (27) down to the tip (30).
    package static let noseBridgeIndices = 27...30
    /// Lower edge of the nose, nostril to nostril; 33 is below the tip.
    package static let lowerNoseIndices = 31...35
    /// Subject's right eye: outer corner 36, upper lid 37-38, inner corner 39, lower lid 40-41.
    package static let rightEyeIndices = 36...41
    /// Subject's left eye: inner corner 42, upper lid 43-44, outer corner 45, lower lid 46-47.
    package static let leftEyeIndices = 42...47
    /// Outer lip line, clockwise in the image from the subject's right mouth corner (48).
    package static let outerLipIndices = 48...59
    /// Inner lip line, clockwise in the image from the subject's right inner corner (60).
    package static let innerLipIndices = 60...67

    /// The number of points in a shape.
    package static let pointCount = 68

    /// Points in pixels of the upright image, in iBUG 300-W order.
    package var points: [CGPoint]

    /// Wraps dlib's points; traps unless there are exactly 68, since every index above relies on it.
    package init(points: [CGPoint]) {
        precondition(
            points.count == Self.pointCount,
            "FaceShape(points:) needs \(Self.pointCount) points, got \(points.count)")
        self.points = points
    }

    package var jaw: [CGPoint] { Array(points[Self.jawIndices]) }
    package var rightEyebrow: [CGPoint] { Array(points[Self.rightEyebrowIndices]) }
    package var leftEyebrow: [CGPoint] { Array(points[Self.leftEyebrowIndices]) }
    package var noseBridge: [CGPoint] { Array(points[Self.noseBridgeIndices]) }
    package var lowerNose: [CGPoint] { Array(points[Self.lowerNoseIndices]) }
    package var rightEye: [CGPoint] { Array(points[Self.rightEyeIndices]) }
    package var leftEye: [CGPoint] { Array(points[Self.leftEyeIndices]) }
    package var outerLips: [CGPoint] { Array(points[Self.outerLipIndices]) }
    package var innerLips: [CGPoint] { Array(points[Self.innerLipIndices]) }
}

// MARK: - The face's own frame

extension FaceShape {
    /// Centre of the subject's right eye: the mean of its 6 points.
    var rightEyeCentre: CGPoint { .mean(of: points[Self.rightEyeIndices]) }

    /// Centre of the subject's left eye: the mean of its 6 points.
    var leftEyeCentre: CGPoint { .mean(of: points[Self.leftEyeIndices]) }

    /// Distance between the outer eye corners (36, 45): the usual scale for landmark error.
    package var interOcularDistance: Double { points[36].distance(to: points[45]) }

    /// Unit vector from the subject's right eye to the left eye; the face's own "x" axis, which
    /// keeps the geometry right under roll. `nil` when the eye centres coincide.
    package var eyeAxis: CGPoint? { (leftEyeCentre - rightEyeCentre).normalized }

    /// Unit vector from the eyes toward the mouth along the face: `eyeAxis` turned a quarter turn
    /// clockwise in the image. `nil` when `eyeAxis` is.
    var downAxis: CGPoint? { eyeAxis?.perpendicularClockwise }

    /// Whether the points look like a face at all, so later stages can refuse garbage rather than
    /// compute nonsense from it.
    ///
    /// Checks that every coordinate is finite, the outer eye corners are apart, and that in the
    /// face's own frame (``eyeAxis``, ``downAxis``) the eyebrows are above the eyes, the eyes above
    /// the nose base, and the nose base above the bottom of the lower lip. A mirrored shape (left
    /// and right swapped) fails, because its "down" points up. Roll of any amount passes.
    package var isPlausible: Bool {
        guard points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return false }
        guard interOcularDistance > 0, let down = downAxis else { return false }
        let browCentre = CGPoint.mean(
            of: points[Self.rightEyebrowIndices.lowerBound...Self.leftEyebrowIndices.upperBound])
        let eyeCentre = rightEyeCentre.interpolated(to: leftEyeCentre, fraction: 0.5)
        let noseBase = points[33]
        let mouthBottom = points[57]
        return (eyeCentre - browCentre).dot(down) > 0
            && (noseBase - eyeCentre).dot(down) > 0
            && (mouthBottom - noseBase).dot(down) > 0
    }
}
