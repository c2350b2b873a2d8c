import Foundation

/// Finds faces in successive video frames and gives each a ``Face/trackingID`` that stays with
/// the same person: the detector every few frames, optical flow in between.
///
/// Detecting is the costly step, so it runs every ``detectionInterval`` analysed frames (and on
/// the first). In between, each face seen in the previous frame is carried forward by
/// ``FaceFollower``: its points are followed by optical flow and the 68-point model is run
/// again from the moved box. When a face cannot be carried (covered, turned away, left the
/// picture, or two faces collapse onto one), the detector runs on that frame at once, and on the
/// ``detectionInterval`` frames after, so that a face covered for a moment is found again as
/// soon as it is back. A new face entering the picture is found within ``detectionInterval`` frames. A
/// ``BoxTracker`` gives IDs to detections; carried faces keep theirs. A face whose 68 points are
/// implausible (``FaceShape/isPlausible``: mostly covered, or turned away) is neither followed
/// nor reported, so it cannot start a track under a new ID while it is half hidden; it is taken
/// up again as soon as it shows.
///
/// With smoothing on (the default), each face's box and points pass through a ``FaceSmoother``
/// (One Euro filters), so that the box, landmarks and head angles of a still face stop
/// trembling; the probabilities are computed from the unsmoothed points, so a blink is not
/// smoothed away.
///
/// The options must have `isTrackingEnabled` set, as ML Kit asks; contours are refused with
/// tracking (``FaceDetectorOptions/validate()``). Frames are expected in playing order, with
/// their presentation time, which the tracker uses to predict motion across skipped frames.
/// A tracker is not thread-safe (its flow and descriptor keep state): one per video and thread.
///
/// Re-identification (``Reidentification``) keeps a face's ID when it comes back after leaving
/// the picture or after a gap longer than the tracker's survival window: it compares dlib's face
/// descriptor (dlib_face_recognition_resnet_model_v1.dat) of faces that overlap no track with
/// the faces lost recently (``BoxTracker``). It is on by default, and a tracker cannot be made
/// without that model (``FaceKitError/modelUnavailable(name:reason:)`` names the one step that
/// fetches it: `scripts/fetch-models`), so IDs never follow weaker rules than asked without a word;
/// ``Reidentification/off`` turns it off, and ``Reidentification/automatic`` leaves it off when the
/// model is missing (``isReidentifying`` tells which, ``reidentificationUnavailableReason`` why,
/// for the caller to say so, as `facekit track` does). Each descriptor costs a ResNet pass, run on a thread of its own (``DescriptorWorker``) and waited
/// for only when a decision needs it. A re-identifying tracker runs best with the process's BLAS
/// on one thread: after each product OpenBLAS's idle threads spin for a while, and on a small
/// machine they take the cores that decoding, the detector and optical flow run on (on the
/// Hamilton clip, 2 cores: 5-30% more frames per second; docs/benchmarks.md). That is a setting
/// of the whole process, so the tracker leaves it to its caller: call `BLASThreads.set(1)` when
/// ``isReidentifying`` is true, before the first frame, as `facekit` does.
///
/// With classification on, eye-open probabilities are judged against each tracked face's own
/// recent openness (``VideoEyeClassifier``), so one person's blink reads as closed even when
/// their open eyes are narrower than most people's.
///
/// ```swift
/// var options = FaceDetectorOptions()
/// options.isTrackingEnabled = true
/// let tracker = try FaceTracker(options: options)
/// let video = try VideoReader(contentsOfFile: "clip.mp4")
/// while let frame = try video.next(), let image = frame.image {
///     for face in try tracker.process(image, timestampMs: frame.timestampMs) {
///         print(frame.index, face.trackingID!, face.frame)   // 0 0 (212.0, 80.0, 92.0, 92.0) ...
///     }
/// }
/// ```
public final class FaceTracker {
    /// Whether faces are re-identified by appearance (dlib's face descriptor).
    public enum Reidentification: Sendable, Equatable {
        /// On when the descriptor model is found, off (overlap and motion only) when it is not:
        /// the caller reads ``FaceTracker/reidentificationUnavailableReason`` and tells its user.
        case automatic
        /// On; creating the tracker fails when the model is missing. The default.
        case required
        /// Off: IDs follow overlap and motion only, and a face lost for longer than
        /// ``TrackerConfiguration/maximumMissedFrames`` comes back with a new ID.
        case off
    }

    /// The detector runs every this many analysed frames by default; faces are carried by
    /// optical flow in between: every 8th or 10th frame was 10-15% faster but matched fewer
    /// faces on the tracking clips (docs/benchmarks.md, "Video").
    public static let defaultDetectionInterval = 5

    public var options: FaceDetectorOptions { detector.options }
    public var configuration: TrackerConfiguration { tracker.configuration }
    /// Whether this tracker re-identifies faces by appearance.
    public var isReidentifying: Bool { descriptorWorker != nil }
    /// Why re-identification is off although it was asked for (``Reidentification/automatic``
    /// and the descriptor model was not found); `nil` when it is on or was turned off.
    public let reidentificationUnavailableReason: String?
    /// The detector runs on every this many analysed frames (1: every frame).
    public let detectionInterval: Int
    /// Whether boxes and points are smoothed over time (``FaceSmoother``).
    public let isSmoothing: Bool

    /// The detector that finds the faces (a detector for still photos can share its models:
    /// ``FaceDetector/init(options:sharingModelsWith:)``).
    public let detector: FaceDetector
    /// dlib's ResNet on a thread of its own, when re-identifying.
    private let descriptorWorker: DescriptorWorker?
    private let pointTracker: NativePointTracker
    private var tracker: BoxTracker
    /// Faces seen in the last analysed frame, by tracking ID: what the next frame carries.
    private var followed: [Int: FaceFollower.State] = [:]
    /// Analysed frames since the detector last ran (so that the first frame is detected).
    private var framesSinceDetection = Int.max / 2
    /// Analysed frames since a followed face was lost while its track lives on.
    private var framesSinceLoss = Int.max / 2
    /// Describes each frame's faces once tracked, on a thread of its own.
    private let reporting: ReportingWorker
    private var cuts = SceneCutDetector()
    /// Every track of this video, with its descriptors: for ``joinedTrackIDs()``. Reading it
    /// waits for the descriptors still computing.
    public var joining: TrackJoining {
        recordDescriptors(waiting: true)
        return spans
    }
    private var spans = TrackJoining()
    /// Descriptors not yet in ``spans``, in the order they were taken (which fixes the order of
    /// each track's descriptors there).
    private var unrecordedDescriptors: [(id: Int, timestampMs: Double, descriptor: PendingDescriptor)] = []

    /// Validates `options` (tracking on, no contours), then loads the detector's models and, as
    /// `reidentification` says, the face descriptor model.
    public convenience init(
        options: FaceDetectorOptions, configuration: TrackerConfiguration = TrackerConfiguration(),
        models: ModelLocator = ModelLocator(), reidentification: Reidentification = .required,
        detectionInterval: Int = FaceTracker.defaultDetectionInterval, smoothing: Bool = true
    ) throws(FaceKitError) {
        guard options.isTrackingEnabled else {
            throw .invalidOption(
                name: "isTrackingEnabled", reason: "a FaceTracker gives tracking IDs only with isTrackingEnabled true")
        }
        try self.init(
            detector: FaceDetector(options: options, models: models), configuration: configuration, models: models,
            reidentification: reidentification, detectionInterval: detectionInterval, smoothing: smoothing)
    }

    /// A tracker that finds faces with `detector` (which must have tracking enabled), so that a
    /// caller who also analyses still photos loads the models once.
    public init(
        detector: FaceDetector, configuration: TrackerConfiguration = TrackerConfiguration(),
        models: ModelLocator = ModelLocator(), reidentification: Reidentification = .required,
        detectionInterval: Int = FaceTracker.defaultDetectionInterval, smoothing: Bool = true
    ) throws(FaceKitError) {
        guard detector.options.isTrackingEnabled else {
            throw .invalidOption(
                name: "isTrackingEnabled", reason: "a FaceTracker gives tracking IDs only with isTrackingEnabled true")
        }
        guard detectionInterval >= 1 else {
            throw .invalidOption(
                name: "detectionInterval", reason: "the detector must run every 1 or more frames, got \(detectionInterval)")
        }
        self.detector = detector
        self.detectionInterval = detectionInterval
        isSmoothing = smoothing
        reporting = ReportingWorker(FaceReporter(detector: detector, isSmoothing: smoothing))
        // The network is read on the worker's thread, while the caller goes on.
        var descriptorModel: String?
        switch reidentification {
        case .off:
            reidentificationUnavailableReason = nil
        case .required:
            descriptorModel = try models.path(for: .faceDescriptor)
            reidentificationUnavailableReason = nil
        case .automatic:
            // Off when the model is not found; a model found but unreadable is an error worth
            // reporting (at the first frame that needs it), not a quiet "off".
            let path: Result<String, FaceKitError> = Result { () throws(FaceKitError) in try models.path(for: .faceDescriptor) }
            switch path {
            case .success(let path):
                descriptorModel = path
                reidentificationUnavailableReason = nil
            case .failure(let error):
                reidentificationUnavailableReason = error.description
            }
        }
        descriptorWorker = descriptorModel.map(DescriptorWorker.init(modelPath:))
        tracker = BoxTracker(configuration: configuration)
        pointTracker = try NativePointTracker()
    }

    /// Waits for the descriptor passes still running: a pass the tracker never read would
    /// otherwise go on into the process's exit, while the libraries it runs in are torn down
    /// (a crash seen when a live stream stalled).
    deinit {
        reporting.waitForAll()
        descriptorWorker?.waitForAll()
    }

    /// The faces in `image`, shown at `timestampMs`, ordered as ``FaceDetector/process(_:)``
    /// orders them, each with its tracking ID.
    public func process(_ image: FaceImage, timestampMs: Double) throws(FaceKitError) -> [Face] {
        try processInBackground(image, timestampMs: timestampMs).faces()
    }

    /// ``process(_:timestampMs:)`` in two halves: returns once the frame is tracked (its faces
    /// found and given their IDs), and describes them (smoothing, head pose, landmarks,
    /// probabilities, quality) on a thread of its own while the caller goes on to the next frame.
    /// The faces are the same as ``process(_:timestampMs:)`` gives; read them in order of the
    /// frames. At most ``ReportingWorker/maximumWaiting`` frames wait to be described: past that,
    /// this waits.
    public func processInBackground(_ image: FaceImage, timestampMs: Double) throws(FaceKitError) -> PendingFaces {
        reporting.report(try track(image, timestampMs: timestampMs))
    }

    /// The first half of ``process(_:timestampMs:)``: each face found in `image`, with its ID.
    private func track(_ image: FaceImage, timestampMs: Double) throws(FaceKitError) -> TrackedFrame {
        if let error = descriptorWorker?.takeError() { throw error }
        let reduction = FaceFollower.reduction(frameWidth: image.width, options: options)
        try pointTracker.push(image, reduction: reduction)
        let isCut = try cuts.isCut(image)
        if isCut {
            // A new shot: nothing is carried over by position or flow, only by appearance.
            tracker.endShot()
            followed.removeAll()
            framesSinceDetection = Int.max / 2
        }
        framesSinceDetection += 1
        framesSinceLoss += 1
        var faces: [(id: Int, state: FaceFollower.State)] = []
        var restartedIDs: Set<Int> = []
        // A face lost a moment ago may be back any frame: look for it on every frame for a while.
        let awaitingReturn = framesSinceLoss < detectionInterval
        if framesSinceDetection < detectionInterval, !awaitingReturn, let carried = try carryFollowedFaces(into: image) {
            faces = carried
            tracker.follow(Dictionary(uniqueKeysWithValues: carried.map { ($0.id, $0.state.frame) }), timestampMs: timestampMs)
        } else {
            (faces, restartedIDs) = try detectFaces(in: image, timestampMs: timestampMs)
            framesSinceDetection = 0
        }
        let live = Set(tracker.liveTrackIDs)
        if followed.keys.contains(where: { id in live.contains(id) && !faces.contains { $0.id == id } }) {
            framesSinceLoss = 0
        }
        followed = Dictionary(uniqueKeysWithValues: faces.map { ($0.id, $0.state) })

        for (id, _) in faces { spans.record(id: id, timestampMs: timestampMs) }
        var descriptors: [PendingDescriptor]?
        if options.descriptorMode == .all {
            // Filled in as the faces are described; their order here fixes their order in spans.
            let pending = faces.map { _ in PendingDescriptor() }
            for (face, descriptor) in zip(faces, pending) { unrecordedDescriptors.append((face.id, timestampMs, descriptor)) }
            descriptors = pending
        }
        recordDescriptors(waiting: false)
        return TrackedFrame(
            image: image, timestampMs: timestampMs, faces: faces, isCut: isCut, restartedIDs: restartedIDs,
            liveIDs: live, descriptors: descriptors)
    }

    /// The tracks of this video that are one person seen in different shots, joined now that
    /// every track's descriptors are known (``TrackJoining``): each joined ID mapped to the ID it
    /// takes. Empty without re-identification. Call at the end of a video, before ``reset()``.
    public func joinedTrackIDs() -> [Int: Int] { isReidentifying ? joining.joinedIDs() : [:] }

    /// Every track's ID for the whole video (``TrackJoining/videoIDs(joining:)``): joined tracks
    /// share one, and they are numbered 0, 1, 2... in order of appearance. The IDs
    /// ``process(_:timestampMs:)`` gives are provisional until then. Call at the end of a video,
    /// before ``reset()``.
    public func videoTrackIDs() -> [Int: Int] { joining.videoIDs(joining: isReidentifying) }

    /// Moves the descriptors that are ready (all of them, waiting, when `waiting`) into
    /// ``spans``, oldest first.
    private func recordDescriptors(waiting: Bool) {
        var recorded = 0
        for (id, timestampMs, descriptor) in unrecordedDescriptors {
            guard waiting || descriptor.isReady else { break }
            let values = descriptor.value
            spans.record(id: id, timestampMs: timestampMs, descriptor: values.map(FaceDescriptor.init(values:)))
            recorded += 1
        }
        unrecordedDescriptors.removeFirst(recorded)
    }

    /// Forgets every face seen so far, for a new video, whose IDs start again from 0: a video's
    /// IDs then do not depend on the videos tracked before it (`facekit track --shard`).
    public func reset() {
        tracker = BoxTracker(configuration: tracker.configuration)
        followed.removeAll()
        reporting.reset()
        cuts = SceneCutDetector()
        descriptorWorker?.waitForAll()
        _ = descriptorWorker?.takeError()
        unrecordedDescriptors.removeAll()
        spans.reset()
        framesSinceDetection = Int.max / 2
        framesSinceLoss = Int.max / 2
    }

    // MARK: - Steps

    /// The faces of the last frame carried into this one, or `nil` when one of them is lost (or
    /// two became one) and the detector must run.
    private func carryFollowedFaces(into image: FaceImage) throws(FaceKitError) -> [(id: Int, state: FaceFollower.State)]? {
        let ids = followed.keys.sorted()
        var motions: [FaceFollower.Motion] = []
        for id in ids {
            guard let motion = try FaceFollower.move(followed[id]!, with: pointTracker, in: image) else { return nil }
            motions.append(motion)
        }
        let shapes = try detector.shapes(in: image, seedBoxes: motions.map(\.seedBox))
        var carried: [(id: Int, state: FaceFollower.State)] = []
        for (index, id) in ids.enumerated() {
            guard let state = FaceFollower.carried(followed[id]!, by: motions[index], shape: shapes[index]) else { return nil }
            carried.append((id, state))
        }
        for (a, b) in carried.indices.flatMap({ a in carried.indices.filter { $0 > a }.map { (a, $0) } })
        where BoxOverlap.intersectionOverUnion(carried[a].state.frame, carried[b].state.frame) > 0.5 {
            return nil
        }
        return carried
    }

    /// A full detection, matched to the tracks by ``BoxTracker`` (with descriptors when
    /// re-identifying), and the IDs whose smoothing starts afresh: new faces, and faces
    /// re-identified after a jump.
    ///
    /// A detection of a face that was being followed gets its boxes half way between the
    /// detector's and where the flow carried them (``detectionWeight``): the detector corrects the
    /// flow's drift, and the 68-point model does not jump between two seed boxes (which can flip
    /// a half-closed eye's reading).
    private func detectFaces(in image: FaceImage, timestampMs: Double) throws(FaceKitError)
        -> (faces: [(id: Int, state: FaceFollower.State)], restarted: Set<Int>)
    {
        let candidates = try detector.candidates(in: image)
        var motions: [FaceFollower.Motion] = []
        for id in followed.keys.sorted() {
            if let motion = try FaceFollower.move(followed[id]!, with: pointTracker, in: image) { motions.append(motion) }
        }
        let overlaps = candidates.map { candidate in motions.map { BoxOverlap.intersectionOverUnion(candidate.frame, $0.frame) } }
        let pairs = Dictionary(uniqueKeysWithValues: GreedyAssignment.pairs(scores: overlaps, minimum: 0.5).map { ($0.row, $0.column) })
        var states: [FaceFollower.State] = []
        var continuing: [Bool] = []
        let seeds = candidates.enumerated().map { index, candidate in
            pairs[index].map { (frame: Self.mix(motions[$0].frame, candidate.frame), seedBox: Self.mix(motions[$0].seedBox, candidate.seedBox)) }
                ?? (frame: candidate.frame, seedBox: candidate.seedBox)
        }
        let shapes = try detector.shapes(in: image, seedBoxes: seeds.map(\.seedBox))
        for (index, candidate) in candidates.enumerated() {
            // Mostly covered or turned away: not followed, not reported; taken up when it shows.
            guard shapes[index].isPlausible else { continue }
            states.append(FaceFollower.State(
                shape: shapes[index], frame: seeds[index].frame, seedBox: seeds[index].seedBox, detectionScore: candidate.score))
            continuing.append(pairs[index] != nil)
        }
        let boxes = states.map(\.frame)
        let ids: [Int]
        var described: [Int: PendingDescriptor] = [:]
        if let descriptorWorker {
            ids = tracker.update(boxes: boxes, timestampMs: timestampMs) { (index) -> PendingDescriptor? in
                let pending = descriptorWorker.describe(states[index].shape, in: image)
                described[index] = pending
                return pending
            }
        } else {
            ids = tracker.update(boxes: boxes, timestampMs: timestampMs)
        }
        for (index, pending) in described.sorted(by: { $0.key < $1.key }) {
            unrecordedDescriptors.append((ids[index], timestampMs, pending))
        }
        let restarted = Set(ids.indices.filter { !continuing[$0] }.map { ids[$0] })
        return (Array(zip(ids, states)).map { (id: $0.0, state: $0.1) }, restarted)
    }

    /// Weight of a new detection's boxes against those carried by flow, for a face followed into
    /// a detection frame.
    static let detectionWeight = 0.5

    /// `carried` moved ``detectionWeight`` of the way to `detected`.
    private static func mix(_ carried: CGRect, _ detected: CGRect) -> CGRect {
        let w = detectionWeight
        return CGRect(
            x: carried.minX + (detected.minX - carried.minX) * w, y: carried.minY + (detected.minY - carried.minY) * w,
            width: carried.width + (detected.width - carried.width) * w,
            height: carried.height + (detected.height - carried.height) * w)
    }
}
