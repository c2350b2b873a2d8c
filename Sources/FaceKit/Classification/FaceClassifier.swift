import Foundation

/// Fills in a face's smiling and eye-open probabilities, or says why each is absent.
///
/// The rules for "cannot be judged" come first: a face whose eyes are closer than
/// ``minimumInterOcularDistance`` pixels is too small for its mouth and lid points to mean
/// anything; implausible landmarks are refused; an eye on the side turned away from the camera
/// (beyond ``eyeVisibilityYawLimit``) is not visible. Otherwise the learned models of
/// ``ClassifierWeights`` give the probabilities.
enum FaceClassifier {
    /// Outer-eye-corner distance, in pixels, below which nothing is judged.
    static let minimumInterOcularDistance = 16.0
    /// Yaw, in degrees, beyond which the eye on the far side is hidden. Positive yaw (face turned
    /// toward the image's right) turns the subject's left eye away.
    static let eyeVisibilityYawLimit = 45.0

    static func classify(_ face: inout Face, shape: FaceShape) {
        let all = Face.Probability.allCases
        guard shape.interOcularDistance >= minimumInterOcularDistance else {
            return markAbsent(&face, all, .faceTooSmall)
        }
        guard shape.isPlausible, let smile = SmileFeatures.features(of: shape) else {
            return markAbsent(&face, all, .landmarksImplausible)
        }
        face.smilingProbability = ClassifierWeights.smile.probability(smile)
        if face.headEulerAngleY > eyeVisibilityYawLimit {
            markAbsent(&face, [.leftEyeOpen], .eyeNotVisible)
        } else {
            face.leftEyeOpenProbability = ClassifierWeights.eyeOpen.probability(EyeFeatures.features(of: shape, eye: .left))
        }
        if face.headEulerAngleY < -eyeVisibilityYawLimit {
            markAbsent(&face, [.rightEyeOpen], .eyeNotVisible)
        } else {
            face.rightEyeOpenProbability = ClassifierWeights.eyeOpen.probability(EyeFeatures.features(of: shape, eye: .right))
        }
    }

    static func markAbsent(_ face: inout Face, _ kinds: [Face.Probability], _ reason: Face.AbsenceReason) {
        for kind in kinds { face.absenceReasons[kind] = reason }
    }
}
