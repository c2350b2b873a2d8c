/// What a ``FaceDetector`` looks for and computes, named and defaulted as in ML Kit's
/// `FaceDetectorOptions`.
///
/// Every mode defaults to the cheapest choice, so a detector built from `FaceDetectorOptions()`
/// finds face boxes and head pose only. Call ``validate()`` (the detector does) to reject
/// combinations ML Kit forbids.
///
/// ```swift
/// var options = FaceDetectorOptions()
/// options.landmarkMode = .all
/// options.minFaceSize = 0.05
/// try options.validate()   // passes
/// ```
public struct FaceDetectorOptions: Sendable, Equatable {
    /// Speed against recall.
    public enum PerformanceMode: String, Sendable, CaseIterable {
        /// One YuNet pass at the scale minFaceSize allows.
        case fast
        /// A finer YuNet search, mirrored as well: finds a few more small and turned faces, at
        /// about 3 times the cost (docs/benchmarks.md).
        case accurate
    }

    /// Whether an optional part of the analysis is computed.
    public enum Mode: String, Sendable, CaseIterable {
        case none
        case all
    }

    public var performanceMode: PerformanceMode = .fast
    /// Computes the 10 ``FaceLandmark`` points.
    public var landmarkMode: Mode = .none
    /// Computes the 15 ``FaceContour`` curves (133 points) for the most prominent face.
    public var contourMode: Mode = .none
    /// Computes smiling and eye-open probabilities.
    public var classificationMode: Mode = .none
    /// Computes each face's ``Face/descriptor`` (dlib's ResNet: a pass of about 15 ms per face
    /// on this project's 2-core machine, docs/benchmarks.md). Not in ML Kit.
    public var descriptorMode: Mode = .none
    /// Smallest face wanted, as head width over image width, in (0, 1]. Faces smaller than this
    /// may be missed; larger values make detection faster because the image is searched at a
    /// reduced size.
    public var minFaceSize: Double = 0.1
    /// Gives each face a ``Face/trackingID`` that persists across consecutive frames.
    public var isTrackingEnabled: Bool = false
    /// Smallest detector confidence (``Face/detectionScore``) for a face to be reported, in
    /// [0, 1]. Not in ML Kit. The default is where precision and recall balance on the fitting
    /// photos (docs/accuracy.md); lower values find more faces and more false ones.
    public var minDetectionScore: Double = FaceDetectorOptions.defaultMinDetectionScore

    /// The default ``minDetectionScore``.
    public static let defaultMinDetectionScore = 0.85

    public init() {}

    /// Throws ``FaceKitError/invalidOption(name:reason:)`` naming the first option that cannot be
    /// honoured: contours together with tracking, a minimum face size outside (0, 1], or a
    /// minimum detection score outside [0, 1].
    public func validate() throws(FaceKitError) {
        if contourMode == .all && isTrackingEnabled {
            throw .invalidOption(
                name: "contourMode",
                reason: "contourMode .all cannot be combined with isTrackingEnabled; ML Kit "
                    + "computes contours only without tracking")
        }
        if !(minFaceSize > 0 && minFaceSize <= 1) {
            throw .invalidOption(
                name: "minFaceSize",
                reason: "minFaceSize must be in (0, 1] (head width over image width), got \(minFaceSize)")
        }
        if !(minDetectionScore >= 0 && minDetectionScore <= 1) {
            throw .invalidOption(
                name: "minDetectionScore",
                reason: "minDetectionScore must be in [0, 1] (the detector's confidence), got \(minDetectionScore)")
        }
    }
}
