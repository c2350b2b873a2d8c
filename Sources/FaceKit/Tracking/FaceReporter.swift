import Foundation

/// One analysed frame as ``FaceTracker`` left it: each face's tracking ID and measured state,
/// and which faces' smoothing starts afresh. What ``FaceReporter`` turns into the reported faces.
struct TrackedFrame: Sendable {
    var image: FaceImage
    var timestampMs: Double
    var faces: [(id: Int, state: FaceFollower.State)]
    /// A cut to another shot: every face's smoothing starts afresh.
    var isCut: Bool
    /// Faces new in this frame, or re-identified after a jump: their smoothing starts afresh.
    var restartedIDs: Set<Int>
    /// The tracks still alive: the smoothing of the others is forgotten.
    var liveIDs: Set<Int>
    /// Where each face's descriptor goes, by position in ``faces``, when the options ask for
    /// descriptors (``FaceDetectorOptions/descriptorMode``).
    var descriptors: [PendingDescriptor]?
}

/// The second half of a tracker's work on a frame: the faces as reported, from where the first
/// half found them. Each face's box and points are smoothed over time (``FaceSmoother``), and its
/// head pose, landmarks, probabilities and quality computed (``FaceDetector``); eye-open
/// probabilities are judged against the face's own recent openness (``VideoEyeClassifier``).
///
/// It keeps only that state, per tracking ID, and needs nothing of the tracking but the frame, so
/// it can work on one frame while the tracker follows the next (``FaceTracker/processInBackground(_:timestampMs:)``).
struct FaceReporter: Sendable {
    let detector: FaceDetector
    let isSmoothing: Bool
    private var smoothers: [Int: FaceSmoother] = [:]
    private var eyeClassifiers: [Int: VideoEyeClassifier] = [:]

    init(detector: FaceDetector, isSmoothing: Bool) {
        self.detector = detector
        self.isSmoothing = isSmoothing
    }

    /// The faces of `frame`, ordered as ``FaceDetector/process(_:)`` orders them, each with its
    /// tracking ID.
    mutating func faces(of frame: TrackedFrame) throws(FaceKitError) -> [Face] {
        if frame.isCut { smoothers.removeAll() }
        for id in frame.restartedIDs { smoothers[id] = nil }
        smoothers = smoothers.filter { frame.liveIDs.contains($0.key) }
        var result: [Face] = []
        do {
            for (index, (id, state)) in frame.faces.enumerated() {
                let face = try face(id: id, state: state, image: frame.image, timestampMs: frame.timestampMs)
                frame.descriptors?[index].fulfil(face.descriptor?.values)
                result.append(face)
            }
        } catch {
            // The tracker waits for every descriptor before joining tracks: none may stay pending.
            for pending in frame.descriptors ?? [] where !pending.isReady { pending.fulfil(nil) }
            throw error
        }
        result.sort { ($0.frame.minX, $0.frame.minY) < ($1.frame.minX, $1.frame.minY) }
        // A face unseen for a whole window has no usable eye history left.
        eyeClassifiers = eyeClassifiers.filter { $0.value.lastTimestampMs >= frame.timestampMs - EyeOpenLevel.window }
        return result
    }

    /// Forgets every face, for a new video.
    mutating func reset() {
        smoothers.removeAll()
        eyeClassifiers.removeAll()
    }

    /// The reported face: smoothed geometry, probabilities from the measured points.
    private mutating func face(id: Int, state: FaceFollower.State, image: FaceImage, timestampMs: Double)
        throws(FaceKitError) -> Face
    {
        var box = state.frame
        var shape = state.shape
        if isSmoothing {
            (box, shape) = smoothers[id, default: FaceSmoother(parameters: FaceSmoother.defaultParameters)]
                .smooth(box: box, shape: shape, timestampMs: timestampMs)
        }
        var face = try detector.face(
            frame: box, shape: shape, classifiedAs: state.shape, detectionScore: state.detectionScore, image: image)
        face.trackingID = id
        face.followedPointShare = state.followedShare
        if detector.options.classificationMode == .all {
            eyeClassifiers[id, default: VideoEyeClassifier()].refine(&face, shape: state.shape, timestampMs: timestampMs)
        }
        return face
    }
}
