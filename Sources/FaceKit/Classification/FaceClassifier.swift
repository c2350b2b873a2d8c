import Foundation

/// Fills in a face's smiling and eye-open probabilities, or says why each is absent.
///
/// The rules for "cannot be judged" come first: a face whose eyes are closer than
/// ``minimumInterOcularDistance`` pixels is too small for its mouth and lid points to mean
/// anything, and one closer than ``minimumInterOcularDistanceForEyes`` too small to read its
/// eyes; implausible landmarks are refused; an eye on the side turned away from the camera
/// (beyond ``eyeVisibilityYawLimit``) is not visible. Otherwise the learned models of
/// ``ClassifierWeights`` give the probabilities.
enum FaceClassifier {
    /// Outer-eye-corner distance, in pixels, below which nothing is judged.
    static let minimumInterOcularDistance = 16.0
    /// Outer-eye-corner distance, in pixels, below which the eyes (then about 8 px wide) are not
    /// judged: from 16 to 24 px the eye model read half of GENKI's open eyes as closed
    /// (docs/accuracy.md, "Eyes open").
    static let minimumInterOcularDistanceForEyes = 24.0
    /// Yaw, in degrees, beyond which the eye on the far side is hidden. Positive yaw (face turned
    /// toward the image's right) turns the subject's left eye away.
    static let eyeVisibilityYawLimit = 45.0

    /// `shape` is in full-size coordinates of the image `image` was decoded from.
    static func classify(_ face: inout Face, shape: FaceShape, image: FaceImage) throws(FaceKitError) {
        let all = Face.Probability.allCases
        guard shape.interOcularDistance >= minimumInterOcularDistance else {
            return markAbsent(&face, all, .faceTooSmall)
        }
        guard shape.isPlausible, let smile = SmileFeatures.features(of: shape) else {
            return markAbsent(&face, all, .landmarksImplausible)
        }
        face.smilingProbability = ClassifierWeights.smile.probability(smile)
        guard shape.interOcularDistance >= minimumInterOcularDistanceForEyes else {
            return markAbsent(&face, [.leftEyeOpen, .rightEyeOpen], .faceTooSmall)
        }
        if face.headEulerAngleY > eyeVisibilityYawLimit {
            markAbsent(&face, [.leftEyeOpen], .eyeNotVisible)
        } else {
            face.leftEyeOpenProbability = try eyeOpenProbability(.left, shape: shape, image: image)
        }
        if face.headEulerAngleY < -eyeVisibilityYawLimit {
            markAbsent(&face, [.rightEyeOpen], .eyeNotVisible)
        } else {
            face.rightEyeOpenProbability = try eyeOpenProbability(.right, shape: shape, image: image)
        }
    }

    /// The still-photo eye model on the eye's geometry and its appearance (``EyeAppearance``).
    static func eyeOpenProbability(_ eye: EyeFeatures.Eye, shape: FaceShape, image: FaceImage) throws(FaceKitError)
        -> Double?
    {
        guard let appearance = try EyeAppearance.features(of: eye, shape: shape, in: image) else { return nil }
        return ClassifierWeights.eyeOpen.probability(EyeFeatures.features(of: shape, eye: eye) + appearance)
    }

    static func markAbsent(_ face: inout Face, _ kinds: [Face.Probability], _ reason: Face.AbsenceReason) {
        for kind in kinds { face.absenceReasons[kind] = reason }
    }
}
