import Foundation

/// Builds ML Kit's 10 landmarks from dlib's 68 points.
///
/// Left and right are the subject's, as in ML Kit: `leftEye` comes from points 42-47, which lie
/// on the image's right in a frontal photo. Every landmark except the ears is a dlib point or an
/// average of dlib points; the ears are estimates (dlib has no ear points) and are left out when
/// that side of the head is turned away from the camera.
///
/// ```swift
/// let landmarks = LandmarkConstruction.landmarks(from: shape, yawDegrees: 40)
/// landmarks.contains { $0.type == .leftEar }  // false: the left ear is turned away
/// ```
enum LandmarkConstruction {
    /// Beyond this yaw, in degrees, the ear on the far side is hidden behind the head, so it is
    /// not reported. Positive yaw (face turned toward the image's right) turns the subject's
    /// left side away; negative yaw turns the right side away.
    static let earVisibilityYawLimit = 30.0

    /// The landmarks in `LandmarkType.allCases` order, without the ear that is turned away.
    ///
    /// - eyes: centre (mean) of the eye's 6 points.
    /// - noseBase: point 33, below the nose tip between the nostrils.
    /// - mouthLeft 54, mouthRight 48, mouthBottom 57 (lower lip, outer edge, centre).
    /// - cheeks: midway between the mouth corner and the outer eye corner on that side
    ///   (left: 54 and 45; right: 48 and 36).
    /// - ears: estimated, see ``estimatedEar(jawEnd:jawNext:outward:)``.
    static func landmarks(from shape: FaceShape, yawDegrees: Double) -> [FaceLandmark] {
        let p = shape.points
        let leftEarVisible = yawDegrees <= earVisibilityYawLimit
        let rightEarVisible = yawDegrees >= -earVisibilityYawLimit
        // Outward directions for the ears: along the eye axis, away from the face. A degenerate
        // shape (eyes on top of each other) falls back to the direction between the jaw ends.
        let axis = shape.eyeAxis ?? (p[16] - p[0]).normalized ?? CGPoint(x: 1, y: 0)

        return FaceLandmark.LandmarkType.allCases.compactMap { type in
            let position: CGPoint? =
                switch type {
                case .leftEye: shape.leftEyeCentre
                case .rightEye: shape.rightEyeCentre
                case .leftEar: leftEarVisible ? estimatedEar(jawEnd: p[16], jawNext: p[15], outward: axis) : nil
                case .rightEar:
                    rightEarVisible ? estimatedEar(jawEnd: p[0], jawNext: p[1], outward: axis * -1) : nil
                case .leftCheek: leftCheek(of: shape)
                case .rightCheek: rightCheek(of: shape)
                case .noseBase: p[33]
                case .mouthLeft: p[54]
                case .mouthRight: p[48]
                case .mouthBottom: p[57]
                }
            return position.map { FaceLandmark(type: type, position: $0) }
        }
    }

    /// Midway between the subject's left mouth corner (54) and left outer eye corner (45).
    static func leftCheek(of shape: FaceShape) -> CGPoint {
        shape.points[54].interpolated(to: shape.points[45], fraction: 0.5)
    }

    /// Midway between the subject's right mouth corner (48) and right outer eye corner (36).
    static func rightCheek(of shape: FaceShape) -> CGPoint {
        shape.points[48].interpolated(to: shape.points[36], fraction: 0.5)
    }

    /// An estimate of the ear's centre (midway between tip and lobe) from the end of the jaw line.
    ///
    /// dlib's jaw line ends in front of the ear, at about eye level (point 0 or 16); the ear's
    /// centre is a little lower and further out. So the estimate is the midpoint of the last two
    /// jaw points, pushed outward along the eye axis by half their distance: roughly half an ear's
    /// width, since a jaw step is about an ear's width on an adult face. This is a guess from face
    /// proportions, not an observation.
    static func estimatedEar(jawEnd: CGPoint, jawNext: CGPoint, outward: CGPoint) -> CGPoint {
        let step = jawEnd.distance(to: jawNext)
        return jawEnd.interpolated(to: jawNext, fraction: 0.5) + outward * (step / 2)
    }
}
