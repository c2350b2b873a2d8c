import Foundation

/// Eye-open probabilities for a face followed through a video, judged against that face's own
/// usual openness (``EyeOpenLevel``) rather than against other people's.
///
/// ``FaceTracker`` keeps one per tracking ID. Each frame, an eye that the still-photo model
/// could judge (``FaceClassifier``) is recorded; once its open level is known, the eye's
/// probability is replaced by the video model's (``ClassifierWeights/eyeOpenInVideo``), whose
/// two features are the still model's log-odds and the eye's log aspect ratio relative to that
/// level: it starts from the still model and corrects it by the person's own habit. Until the
/// level is known, for the first ``EyeOpenLevel/minimumSamples`` sightings, the still-photo
/// probability stands. Absent probabilities stay absent, with their reason.
package struct VideoEyeClassifier: Sendable {
    private var left = EyeOpenLevel()
    private var right = EyeOpenLevel()
    /// When this face was last given to ``refine(_:shape:timestampMs:)``.
    package private(set) var lastTimestampMs = -Double.infinity

    package init() {}

    /// Records the face's eyes and replaces their probabilities with the video model's.
    package mutating func refine(_ face: inout Face, shape: FaceShape, timestampMs: Double) {
        lastTimestampMs = timestampMs
        if let still = face.leftEyeOpenProbability {
            face.leftEyeOpenProbability = Self.update(
                &left, still: still, ratio: EyeFeatures.aspectRatio(shape.leftEye), timestampMs: timestampMs)
        }
        if let still = face.rightEyeOpenProbability {
            face.rightEyeOpenProbability = Self.update(
                &right, still: still, ratio: EyeFeatures.aspectRatio(shape.rightEye), timestampMs: timestampMs)
        }
    }

    /// Records `ratio` in `level` and returns the video model's probability for the eye, or
    /// `still` while the level is unknown.
    static func update(_ level: inout EyeOpenLevel, still: Double, ratio: Double, timestampMs: Double) -> Double {
        guard let relative = level.observe(ratio, timestampMs: timestampMs) else { return still }
        return ClassifierWeights.eyeOpenInVideo.probability(features(still: still, relativeOpenness: relative))
    }

    /// The video model's features: the still probability's log-odds (bounded, so that a
    /// probability of exactly 0 or 1 stays finite) and the relative openness.
    package static func features(still: Double, relativeOpenness: Double) -> [Double] {
        [LogisticModel.logOdds(still), relativeOpenness]
    }
}
