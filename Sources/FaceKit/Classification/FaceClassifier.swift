import Foundation

/// Fills in a face's smiling and eye-open probabilities, or says why each is absent.
///
/// The rules for "cannot be judged" come first: a face whose eyes are closer than
/// ``minimumInterOcularDistance`` pixels is too small for its mouth and lid points to mean
/// anything; implausible landmarks are refused; an eye on the side turned away from the camera
/// (beyond ``eyeVisibilityYawLimit``) is not visible. Otherwise the smile's probability comes
/// from the smile network over the mouth's patch (``SmileModel``), each eye's from the eye-state
/// network (``EyeStateModel``), both eyes in one pass, made honest for eyes under 24 px apart
/// by ``SmallEyeCorrection``.
enum FaceClassifier {
    /// Outer-eye-corner distance, in pixels, below which nothing is judged: under 16 px an eye
    /// is 5 px wide, and strangers' eyes shrunk there and saved as JPEG rank at AUC 0.84-0.80
    /// (14-12 px) against 0.89 at 16 px and 0.95 at 18 (docs/accuracy.md, "Small eyes").
    static let minimumInterOcularDistance = 16.0
    /// Yaw, in degrees, beyond which the eye on the far side is hidden. Positive yaw (face turned
    /// toward the image's right) turns the subject's left eye away.
    static let eyeVisibilityYawLimit = 45.0

    /// `shape` is in full-size coordinates of the image `image` was decoded from.
    static func classify(
        _ face: inout Face, shape: FaceShape, image: FaceImage, eyeState: EyeStateModel, smile: SmileModel
    ) throws(FaceKitError) {
        let all = Face.Probability.allCases
        guard shape.interOcularDistance >= minimumInterOcularDistance else {
            return markAbsent(&face, all, .faceTooSmall)
        }
        guard shape.isPlausible, let features = SmileFeatures.features(of: shape),
            let mouth = try SmileModel.patch(shape: shape, in: image)
        else {
            return markAbsent(&face, all, .landmarksImplausible)
        }
        // A close-up may cut the mouth or an eye off: what is not in the picture is not judged
        // (an eye by its centre; the mouth by its corners and its lowest point, which the model
        // squeezes against the edge of a picture cut below the nose).
        func inPicture(_ points: [CGPoint]) -> Bool {
            points.allSatisfy { FaceDetector.isInPicture($0, frame: face.frame, imageSize: image.fullSize) }
        }
        if inPicture([48, 54, 57].map { shape.points[$0] }) {
            face.smilingProbability = try smile.smilingProbabilities(patches: [mouth], features: [features])[0]
        } else {
            markAbsent(&face, [.smiling], .outsideImage)
        }
        // Positive yaw turns the subject's left eye away.
        var judged: [(value: WritableKeyPath<Face, Double?>, patch: [UInt8])] = []
        for (eye, kind, value, hidden) in [
            (EyeFeatures.Eye.left, Face.Probability.leftEyeOpen, \Face.leftEyeOpenProbability,
             face.headEulerAngleY > eyeVisibilityYawLimit),
            (.right, .rightEyeOpen, \Face.rightEyeOpenProbability, face.headEulerAngleY < -eyeVisibilityYawLimit),
        ] {
            if hidden {
                markAbsent(&face, [kind], .eyeNotVisible)
            } else if !inPicture([.mean(of: eye == .left ? shape.leftEye : shape.rightEye)]) {
                markAbsent(&face, [kind], .outsideImage)
            } else if let patch = try EyeStateModel.patch(of: eye, shape: shape, in: image) {
                judged.append((value, patch))
            } else {
                markAbsent(&face, [kind], .landmarksImplausible)
            }
        }
        guard !judged.isEmpty else { return }
        for (eye, probability) in zip(judged, try eyeState.openProbabilities(judged.map(\.patch))) {
            face[keyPath: eye.value] = SmallEyeCorrection.fitted.corrected(probability, interOcularDistance: shape.interOcularDistance)
        }
    }

    static func markAbsent(_ face: inout Face, _ kinds: [Face.Probability], _ reason: Face.AbsenceReason) {
        for kind in kinds { face.absenceReasons[kind] = reason }
    }
}
