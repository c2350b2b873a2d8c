import Foundation

/// Eye-open probabilities for a face followed through a video, judged against that face's own
/// usual openness (``EyeOpenLevel``) rather than against other people's.
///
/// ``FaceTracker`` keeps one per tracking ID. Each frame, an eye that the still-photo model
/// could judge (``FaceClassifier``) is recorded; once its open level is known, the eye's
/// probability is replaced by the video model's (``ClassifierWeights/eyeOpenInVideo``), whose
/// one feature is the eye's log aspect ratio relative to that level. Until then, for the first
/// ``EyeOpenLevel/minimumSamples`` sightings, the still-photo probability stands. Absent
/// probabilities stay absent, with their reason.
@_spi(Training) public struct VideoEyeClassifier: Sendable {
    private var left = EyeOpenLevel()
    private var right = EyeOpenLevel()
    /// When this face was last given to ``refine(_:shape:timestampMs:)``.
    public private(set) var lastTimestampMs = -Double.infinity

    public init() {}

    /// Records the face's eyes and replaces their probabilities with the video model's.
    public mutating func refine(_ face: inout Face, shape: FaceShape, timestampMs: Double) {
        lastTimestampMs = timestampMs
        if face.leftEyeOpenProbability != nil {
            face.leftEyeOpenProbability = Self.update(&left, ratio: EyeFeatures.aspectRatio(shape.leftEye), timestampMs: timestampMs)
                ?? face.leftEyeOpenProbability
        }
        if face.rightEyeOpenProbability != nil {
            face.rightEyeOpenProbability = Self.update(&right, ratio: EyeFeatures.aspectRatio(shape.rightEye), timestampMs: timestampMs)
                ?? face.rightEyeOpenProbability
        }
    }

    /// Records `ratio` in `level` and returns the video model's probability for it, if known.
    static func update(_ level: inout EyeOpenLevel, ratio: Double, timestampMs: Double) -> Double? {
        level.observe(ratio, timestampMs: timestampMs).map { ClassifierWeights.eyeOpenInVideo.probability([$0]) }
    }
}
