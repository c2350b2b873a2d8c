import FaceKit
import Foundation

/// One face as `facekit report` reads it: a row of an `analyze`, `track` or `group` table (CSV or
/// JSON Lines), or a face the report found itself. Columns a table lacks are `nil`.
struct ReportFace: Sendable {
    var source: String
    /// 0-based frame index in a video; `nil` for a photo.
    var frame: Int?
    var timestampMs: Double?
    var index: Int
    var trackingID: Int?
    var box: CGRect
    var detectionScore: Double?
    /// Head rotation in degrees: x pitch, y yaw, z roll.
    var headEulerX: Double?
    var headEulerY: Double?
    var headEulerZ: Double?
    var smiling: Double?
    var leftEyeOpen: Double?
    var rightEyeOpen: Double?
    /// Whether the table had probability columns filled for this face (classification was on).
    var classified = false
    var quality: Double?
    /// The known person's name (`--known`); `nil` when no one is close enough or not asked.
    var person: String?
    var personDistance: Double?
    /// `facekit group`'s person number.
    var personID: Int?
    /// dlib's descriptor: from a face the report analysed itself, or a JSON Lines row written
    /// with `--descriptors`; what the report groups faces into people by (``ReportPeople``).
    var descriptor: FaceDescriptor?
    var landmarks: [FaceLandmark] = []

    var isVideo: Bool { frame != nil }

    /// The mean of the eye-open probabilities it has, `nil` when neither eye was judged.
    var meanEyeOpen: Double? {
        let eyes = [leftEyeOpen, rightEyeOpen].compactMap { $0 }
        return eyes.isEmpty ? nil : eyes.reduce(0, +) / Double(eyes.count)
    }

    /// How good a shot of the person this face is, to choose a person's and a track's best:
    /// `quality` when the table has it (``FaceQuality``: large, sharp, frontal, eyes open, well
    /// exposed), else the detection score times the size (box width / 200 px, at most 1) times
    /// the frontalness (1 - (angle / 60°)², angle = √(yaw² + pitch²), at least 0.01; 1 when
    /// the table has no head pose).
    var shotRank: Double {
        if let quality { return quality }
        let angle = ((headEulerY ?? 0) * (headEulerY ?? 0) + (headEulerX ?? 0) * (headEulerX ?? 0)).squareRoot()
        let frontalness = max(0.01, 1 - (angle / 60) * (angle / 60))
        return (detectionScore ?? 0.5) * min(1, box.width / 200) * frontalness
    }

    /// The face as the library's value, for the drawing code `facekit annotate` uses.
    var face: Face {
        var reasons: [Face.Probability: Face.AbsenceReason] = [:]
        if !classified { for kind in Face.Probability.allCases { reasons[kind] = .notRequested } }
        return Face(
            frame: box, headEulerAngleX: headEulerX ?? 0, headEulerAngleY: headEulerY ?? 0,
            headEulerAngleZ: headEulerZ ?? 0, landmarks: landmarks, smilingProbability: smiling,
            leftEyeOpenProbability: leftEyeOpen, rightEyeOpenProbability: rightEyeOpen, trackingID: trackingID,
            absenceReasons: reasons, detectionScore: detectionScore ?? 0)
    }

    init(source: String, frame: Int? = nil, timestampMs: Double? = nil, index: Int, box: CGRect) {
        self.source = source
        self.frame = frame
        self.timestampMs = timestampMs
        self.index = index
        self.box = box
    }

    /// A face the report analysed itself.
    init(record: FaceRecord) {
        let face = record.face
        self.init(
            source: record.source, frame: record.frame, timestampMs: record.timestampMilliseconds, index: record.index,
            box: face.frame)
        trackingID = face.trackingID
        detectionScore = face.detectionScore
        headEulerX = face.headEulerAngleX
        headEulerY = face.headEulerAngleY
        headEulerZ = face.headEulerAngleZ
        smiling = face.smilingProbability
        leftEyeOpen = face.leftEyeOpenProbability
        rightEyeOpen = face.rightEyeOpenProbability
        classified = Face.Probability.allCases.contains { face.absenceReason($0) != .notRequested }
        landmarks = face.landmarks
        quality = face.quality
        person = record.person?.name
        personDistance = record.person?.distance
        descriptor = face.descriptor
    }
}
