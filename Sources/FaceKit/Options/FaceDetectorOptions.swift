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

    /// Which way up faces are searched for.
    public enum OrientationMode: String, Sendable, CaseIterable {
        /// Faces standing up in the image, rolled by up to about 45 degrees either way: one
        /// search.
        case upright
        /// Faces at any roll: lying on either side or upside down (a photo turned, a person
        /// lying down) as well as upright. Where the upright search leaves doubt (no face, one
        /// lying, or none clearly upright), the image is searched again turned by each quarter
        /// turn, and turned 45 degrees for faces rolled between; every face is measured from an
        /// upright view of it.
        case any
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
    /// Smallest face wanted, as head width over image width, in (0, 1]
    /// (``isValidMinFaceSize(_:)``). Faces smaller than this may be missed; larger values make
    /// detection faster because the image is searched at a reduced size. Everything that depends
    /// on it goes through `smallestFaceBox(imageWidth:)`.
    public var minFaceSize: Double = FaceDetectorOptions.defaultMinFaceSize
    /// Which way up faces are searched for. Not in ML Kit, which reads a rotation passed with
    /// the image instead. `.any` (the default) finds a face whatever its roll, at the cost of
    /// more network passes where the upright search leaves doubt (docs/benchmarks.md); video
    /// tracking searches upright faces only.
    public var orientationMode: OrientationMode = .any
    /// Gives each face a ``Face/trackingID`` that persists across consecutive frames.
    public var isTrackingEnabled: Bool = false
    /// Smallest detector confidence (``Face/detectionScore``) for a face to be reported, in
    /// [0, 1]. Not in ML Kit. In photos a face the search scores below it is looked at again,
    /// turned upright, and kept if it scores this there, or else if dlib's CNN finds it in that
    /// view (its score then stays under this); video takes neither look. Unless set,
    /// it is ``defaultMinDetectionScore`` for photos and ``defaultVideoMinDetectionScore`` with
    /// tracking, both chosen on the development data (docs/accuracy.md, "Finding every face");
    /// lower values find more faces and more false ones.
    public var minDetectionScore: Double {
        get { chosenMinDetectionScore ?? (isTrackingEnabled ? Self.defaultVideoMinDetectionScore : Self.defaultMinDetectionScore) }
        set { chosenMinDetectionScore = newValue }
    }
    /// ``minDetectionScore`` when set; `nil` while it follows the default of the context.
    private var chosenMinDetectionScore: Double?

    /// The default ``minDetectionScore`` for photos, where a face below it gets a second, upright look.
    public static let defaultMinDetectionScore = 0.84
    /// The default ``minDetectionScore`` with tracking: the search's own score must carry the
    /// decision there, and the tracking sequences' false faces score from 0.8 to 0.85.
    public static let defaultVideoMinDetectionScore = 0.85

    /// The default ``minFaceSize``: a head a tenth of the image wide.
    public static let defaultMinFaceSize = 0.1

    /// Whether `minFaceSize` is one ``validate()`` accepts: greater than 0 and at most 1 (so not
    /// NaN).
    ///
    /// ```swift
    /// FaceDetectorOptions.isValidMinFaceSize(0.05)  // true
    /// FaceDetectorOptions.isValidMinFaceSize(0)     // false
    /// ```
    public static func isValidMinFaceSize(_ minFaceSize: Double) -> Bool {
        minFaceSize > 0 && minFaceSize <= 1
    }

    public init() {}

    /// The options by name, as ``FaceKitError/invalidOption(name:reason:)`` names the one
    /// ``validate()`` refuses (the raw value is the property's name).
    ///
    /// ```swift
    /// FaceDetectorOptions.Option(rawValue: "minFaceSize")   // .minFaceSize
    /// ```
    public enum Option: String, Sendable, CaseIterable {
        case performanceMode, landmarkMode, contourMode, classificationMode, descriptorMode, minFaceSize,
            orientationMode, isTrackingEnabled, minDetectionScore
    }

    /// Throws ``FaceKitError/invalidOption(name:reason:)`` naming the first option that cannot be
    /// honoured: contours together with tracking, a minimum face size outside (0, 1], or a
    /// minimum detection score outside [0, 1].
    public func validate() throws(FaceKitError) {
        if contourMode == .all && isTrackingEnabled {
            throw .invalidOption(
                name: Option.contourMode.rawValue,
                reason: "contourMode .all cannot be combined with isTrackingEnabled; ML Kit "
                    + "computes contours only without tracking")
        }
        if !Self.isValidMinFaceSize(minFaceSize) {
            throw .invalidOption(
                name: Option.minFaceSize.rawValue,
                reason: "minFaceSize must be in (0, 1] (head width over image width), got \(minFaceSize)")
        }
        if !(minDetectionScore >= 0 && minDetectionScore <= 1) {
            throw .invalidOption(
                name: Option.minDetectionScore.rawValue,
                reason: "minDetectionScore must be in [0, 1] (the detector's confidence), got \(minDetectionScore)")
        }
    }
}

extension FaceDetectorOptions {
    /// A face box spans about 80% of the head's width (cheek to cheek, not ear to ear), for
    /// YuNet as for dlib, and ``minFaceSize`` is a head width.
    package static let boxWidthPerHeadWidth = 0.8

    /// Width in pixels of the box of the smallest face these options ask for, in an image
    /// `imageWidth` pixels wide: minFaceSize x image width x 0.8. The one place that turns
    /// minFaceSize into pixels: the search's scale (``SearchPlan``), the specks YuNet's finder
    /// drops, the reduced decode (``FaceDetector/process(contentsOfFile:maxPixels:)``), the
    /// optical flow's reduction in video and the tools' dlib search all start from it.
    ///
    /// ```swift
    /// FaceDetectorOptions().smallestFaceBox(imageWidth: 1000)   // 80.0
    /// ```
    package func smallestFaceBox(imageWidth: Int) -> Double {
        minFaceSize * Double(imageWidth) * Self.boxWidthPerHeadWidth
    }

    /// The image width at which ``smallestFaceBox(imageWidth:)`` is `boxWidth` pixels: its
    /// inverse, not rounded (infinite when minFaceSize is too small for any width).
    ///
    /// ```swift
    /// FaceDetectorOptions().imageWidth(whereSmallestFaceBoxIs: 160)   // 2000.0
    /// ```
    package func imageWidth(whereSmallestFaceBoxIs boxWidth: Double) -> Double {
        boxWidth / (Self.boxWidthPerHeadWidth * minFaceSize)
    }
}
