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
        /// dlib's HOG detector: quick, frontal faces.
        case fast
        /// dlib's MMOD CNN detector: finds more small, turned and dark faces, much slower.
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
    /// Smallest face wanted, as head width over image width, in (0, 1]. Faces smaller than this
    /// may be missed; larger values make detection faster because the image is searched at a
    /// reduced size.
    public var minFaceSize: Double = 0.1
    /// Gives each face a ``Face/trackingID`` that persists across consecutive frames.
    public var isTrackingEnabled: Bool = false

    public init() {}

    /// Throws ``FaceKitError/invalidOption(name:reason:)`` naming the first option that cannot be
    /// honoured: contours together with tracking, or a minimum face size outside (0, 1].
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
    }
}
