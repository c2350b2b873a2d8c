import Foundation

/// One face found in an image, as in ML Kit's `Face`.
///
/// Optional values are `nil` when they were not computed, never 0 or -1;
/// ``absenceReason(_:)`` says why a probability is missing.
public struct Face: Sendable, Equatable {
    /// Which probability ``absenceReason(_:)`` is asked about.
    public enum Probability: String, Sendable, CaseIterable {
        case smiling, leftEyeOpen, rightEyeOpen
    }

    /// Why a probability is absent.
    public enum AbsenceReason: String, Sendable, Equatable {
        /// classificationMode was `.none`.
        case notRequested = "not_requested"
        /// The eye is turned away from the camera.
        case eyeNotVisible = "eye_not_visible"
        /// The face is below the minimum size the classifier can judge.
        case faceTooSmall = "face_too_small"
        /// The landmarks the classifier needs are implausible.
        case landmarksImplausible = "landmarks_implausible"
        /// The eye, or the mouth, lies outside the picture (a close-up the frame cuts).
        case outsideImage = "outside_image"
    }

    /// Box in pixels of the upright image, origin top-left.
    public var frame: CGRect
    /// Pitch in degrees; positive when the face is turned up.
    public var headEulerAngleX: Double
    /// Yaw in degrees; positive when the face is turned toward the image's right side.
    public var headEulerAngleY: Double
    /// Roll in degrees; positive when the face is rotated counter-clockwise in the image.
    public var headEulerAngleZ: Double
    /// The landmarks found, empty unless landmarkMode is `.all`. Ears are left out when turned
    /// away from the camera, and any landmark outside the picture (a face the frame cuts).
    public var landmarks: [FaceLandmark]
    /// The contours, empty unless contourMode is `.all` and this is the most prominent face;
    /// a contour that reaches outside the picture is left out.
    public var contours: [FaceContour]
    public var smilingProbability: Double?
    public var leftEyeOpenProbability: Double?
    public var rightEyeOpenProbability: Double?
    /// Present only with tracking enabled.
    public var trackingID: Int?
    /// Why each absent probability is absent.
    public var absenceReasons: [Probability: AbsenceReason]
    /// The detector's confidence, for ranking; not comparable between performance modes. At least
    /// ``FaceDetectorOptions/minDetectionScore``, except for a photo's face that only dlib's CNN,
    /// the third look, kept: YuNet's better score for it, under the minimum.
    public var detectionScore: Double
    /// dlib's face descriptor, with descriptorMode `.all`: for telling who the face is.
    public var descriptor: FaceDescriptor?
    /// Why ``descriptor`` is absent (`.notRequested`, or `.landmarksImplausible`: the face chip
    /// cannot be aligned); `nil` when it is present.
    public var descriptorAbsenceReason: AbsenceReason?
    /// How good a shot of the face this is, in 0-1 (``FaceQuality``): for picking a person's or a
    /// track's best shot. Not in ML Kit.
    public var quality: Double
    /// dlib's 68 points that every landmark, contour and angle is built from, in iBUG 300-W order
    /// (0-16 the jaw line, 36-41 the subject's right eye, ...: docs/landmarks-and-contours.md), in
    /// pixels of the upright image; `nil` for a point outside the picture, as a landmark there is
    /// left out. Empty for a face made by hand. Not in ML Kit.
    public var points68: [CGPoint?] = []
    /// For a video frame's face that ``FaceTracker`` followed into the frame by optical flow
    /// rather than found with the detector: the share, 0.5-1, of the points it follows that the
    /// flow brought back (``detectionScore`` is then its last detection's). `nil` for a face the
    /// detector found in this frame, and for every face of a still photo. Not in ML Kit.
    public var followedPointShare: Double?

    public init(
        frame: CGRect, headEulerAngleX: Double = 0, headEulerAngleY: Double = 0,
        headEulerAngleZ: Double = 0, landmarks: [FaceLandmark] = [], contours: [FaceContour] = [],
        smilingProbability: Double? = nil, leftEyeOpenProbability: Double? = nil,
        rightEyeOpenProbability: Double? = nil, trackingID: Int? = nil,
        absenceReasons: [Probability: AbsenceReason] = [:], detectionScore: Double = 0,
        descriptor: FaceDescriptor? = nil, descriptorAbsenceReason: AbsenceReason? = nil, quality: Double = 0
    ) {
        self.frame = frame
        self.headEulerAngleX = headEulerAngleX
        self.headEulerAngleY = headEulerAngleY
        self.headEulerAngleZ = headEulerAngleZ
        self.landmarks = landmarks
        self.contours = contours
        self.smilingProbability = smilingProbability
        self.leftEyeOpenProbability = leftEyeOpenProbability
        self.rightEyeOpenProbability = rightEyeOpenProbability
        self.trackingID = trackingID
        self.absenceReasons = absenceReasons
        self.detectionScore = detectionScore
        self.descriptor = descriptor
        self.descriptorAbsenceReason = descriptorAbsenceReason
        self.quality = quality
    }

    /// The landmark of the given type, if it was computed.
    public func landmark(ofType type: FaceLandmark.LandmarkType) -> FaceLandmark? {
        landmarks.first { $0.type == type }
    }

    /// The contour of the given type, if it was computed.
    public func contour(ofType type: FaceContour.ContourType) -> FaceContour? {
        contours.first { $0.type == type }
    }

    /// The value of a probability, `nil` when absent.
    public func probability(_ kind: Probability) -> Double? {
        switch kind {
        case .smiling: smilingProbability
        case .leftEyeOpen: leftEyeOpenProbability
        case .rightEyeOpen: rightEyeOpenProbability
        }
    }

    /// Why a probability is absent; `nil` when it is present.
    public func absenceReason(_ kind: Probability) -> AbsenceReason? {
        probability(kind) == nil ? absenceReasons[kind] : nil
    }
}
