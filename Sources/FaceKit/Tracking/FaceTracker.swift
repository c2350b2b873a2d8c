import Foundation
import Synchronization

/// Finds faces in successive video frames and gives each a ``Face/trackingID`` that stays with
/// the same person: the detector every few frames, optical flow in between.
///
/// Detecting is the costly step, so it runs every ``detectionInterval`` analysed frames (and on
/// the first). In between, each face seen in the previous frame is carried forward by
/// `FaceFollower`: its points are followed by optical flow and the 68-point model is run
/// again from the moved box. When a face cannot be carried (covered, turned away, left the
/// picture, or two faces collapse onto one), the detector runs on that frame at once, and on the
/// ``detectionInterval`` frames after, so that a face covered for a moment is found again as
/// soon as it is back. A new face entering the picture is found within ``detectionInterval`` frames. A
/// `BoxTracker` gives IDs to detections; carried faces keep theirs. A face whose 68 points are
/// implausible (`FaceShape.isPlausible`: mostly covered, or turned away) is neither followed
/// nor reported, so it cannot start a track under a new ID while it is half hidden; it is taken
/// up again as soon as it shows.
///
/// With smoothing on (the default), each face's box and points pass through a `FaceSmoother`
/// (One Euro filters), so that the box, landmarks and head angles of a still face stop
/// trembling; the probabilities are computed from the unsmoothed points, so a blink is not
/// smoothed away.
///
/// The options must have `isTrackingEnabled` set, as ML Kit asks; contours are refused with
/// tracking (``FaceDetectorOptions/validate()``). Frames are expected in playing order, with
/// their presentation time, which the tracker uses to predict motion across skipped frames. A
/// frame of another size than the one before (a stream whose resolution changes on the way, as
/// broadcast and adaptive streams may) starts a new shot, as a cut does: its faces are found at
/// its own size and taken up again by appearance only.
/// A tracker follows one video at a time: it may be handed between threads and tasks, and calls
/// from several take turns, but frames of two videos given to one tracker would be followed as
/// one video.
///
/// Tracking IDs are final or provisional, and the type says which. ``frames(of:)`` and
/// ``track(_:index:timestampMs:)`` give ``TrackedVideoFrame``s, whose IDs are final: the number
/// of the face's person in the video, 0, 1, 2... in order of appearance, one ID for the tracks
/// of one person seen in different shots (`TrackJoining`); a frame comes out once every ID in
/// it is decided, at most `TrackJoining.defaultDecisionHorizonMs` (30 s of video) after it
/// unless re-identification still waits for a face lost less than
/// ``TrackerConfiguration/reidentificationWindowMs`` before, so memory stays bounded whatever
/// the video's length. ``process(_:timestampMs:)`` gives the frame's faces at once, as ML Kit
/// does, with provisional IDs: the same as the final ones until a track joins an earlier one,
/// after which ``videoTrackIDs()`` maps them to the final ones at the end of the video.
///
/// Re-identification (``Reidentification``) keeps a face's ID when it comes back after leaving
/// the picture or after a gap longer than the tracker's survival window: it compares dlib's face
/// descriptor (dlib_face_recognition_resnet_model_v1.dat) of faces that overlap no track with
/// the faces lost recently (`BoxTracker`). It is on by default, and a tracker cannot be made
/// without that model (``FaceKitError/modelUnavailable(name:reason:)`` names the one step that
/// fetches it: `scripts/fetch-models`), so IDs never follow weaker rules than asked without a word;
/// ``Reidentification/off`` turns it off, and ``Reidentification/automatic`` leaves it off when the
/// model is missing (``isReidentifying`` tells which, ``reidentificationUnavailableReason`` why,
/// for the caller to say so, as `facekit track` does). Each descriptor costs a ResNet pass, run on a thread of its own (`DescriptorWorker`) and waited
/// for only when a decision needs it. A re-identifying tracker runs best with the process's BLAS
/// on one thread: after each product OpenBLAS's idle threads spin for a while, and on a small
/// machine they take the cores that decoding, the detector and optical flow run on (on the
/// Hamilton clip, 2 cores: 5-30% more frames per second; docs/benchmarks.md). That is a setting
/// of the whole process, so the tracker leaves it as the process starts it: start a program that
/// re-identifies with `OPENBLAS_NUM_THREADS=1` in its environment (`facekit` makes the same
/// setting itself when ``isReidentifying`` is true, before the first frame).
///
/// With classification on, eye-open probabilities are judged against each tracked face's own
/// recent openness (`VideoEyeClassifier`), so one person's blink reads as closed even when
/// their open eyes are narrower than most people's.
///
/// ```swift
/// var options = FaceDetectorOptions()
/// options.isTrackingEnabled = true
/// let tracker = try FaceTracker(options: options)
/// let video = try VideoReader(contentsOfFile: "clip.mp4")
/// while let frame = try video.next(), let image = frame.image {
///     for face in try tracker.process(image, timestampMs: frame.timestampMs) {
///         let box = face.frame.integral
///         print(frame.index, face.trackingID!, box.minX, box.minY, box.width, box.height)   // 0 0 91.0 117.0 88.0 114.0 ...
///     }
/// }
/// ```
public final class FaceTracker: Sendable {
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
    public let configuration: TrackerConfiguration
    /// Whether this tracker re-identifies faces by appearance.
    public var isReidentifying: Bool { descriptorWorker != nil }
    /// Why re-identification is off although it was asked for (``Reidentification/automatic``
    /// and the descriptor model was not found); `nil` when it is on or was turned off.
    public let reidentificationUnavailableReason: String?
    /// The detector runs on every this many analysed frames (1: every frame).
    public let detectionInterval: Int
    /// Whether boxes and points are smoothed over time (`FaceSmoother`).
    public let isSmoothing: Bool

    /// The detector that finds the faces (a detector for still photos can share its models:
    /// ``FaceDetector/init(options:sharingModelsWith:)``).
    public let detector: FaceDetector
    /// dlib's ResNet on a thread of its own, when re-identifying.
    private let descriptorWorker: DescriptorWorker?
    /// Describes each frame's faces once tracked, on a thread of its own.
    private let reporting: ReportingWorker

    /// Everything that changes from frame to frame; calls take turns at it.
    private struct State {
        var tracking: FrameTracker
        /// Frames given to ``track(_:index:timestampMs:)`` and not yet handed back, oldest first.
        var waiting: [WaitingFrame] = []
        /// ``finishVideo()`` was called: the next frame starts a new video.
        var isFinished = false
    }

    /// A frame being described, or whose IDs are not all final yet.
    private struct WaitingFrame {
        var index: Int
        var timestampMs: Double
        var faces: PendingFaces
        /// The faces' provisional IDs.
        var ids: [Int]
    }

    private let state: Mutex<State>

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
        self.configuration = configuration
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
        let descriptorWorker = descriptorModel.map(DescriptorWorker.init(modelPath:))
        self.descriptorWorker = descriptorWorker
        state = Mutex(State(tracking: try FrameTracker(
            detector: detector, descriptorWorker: descriptorWorker, configuration: configuration,
            detectionInterval: detectionInterval)))
    }

    /// Waits for the descriptor passes still running: a pass the tracker never read would
    /// otherwise go on into the process's exit, while the libraries it runs in are torn down
    /// (a crash seen when a live stream stalled).
    deinit {
        reporting.waitForAll()
        descriptorWorker?.waitForAll()
    }

    /// The faces in `image`, shown at `timestampMs`, ordered as ``FaceDetector/process(_:)-4y4vc``
    /// orders them, each with its provisional tracking ID: final as long as no track has joined an
    /// earlier one (``videoTrackIDs()``; ``track(_:index:timestampMs:)`` gives final IDs).
    public func process(_ image: FaceImage, timestampMs: Double) throws(FaceKitError) -> [Face] {
        try processInBackground(image, timestampMs: timestampMs).faces()
    }

    /// ``process(_:timestampMs:)`` in two halves: returns once the frame is tracked (its faces
    /// found and given their IDs), and describes them (smoothing, head pose, landmarks,
    /// probabilities, quality) on a thread of its own while the caller goes on to the next frame.
    /// The faces are the same as ``process(_:timestampMs:)`` gives; read them in order of the
    /// frames. At most 4 frames (`ReportingWorker.maximumWaiting`) wait to be described: past that,
    /// this waits.
    public func processInBackground(_ image: FaceImage, timestampMs: Double) throws(FaceKitError) -> PendingFaces {
        try state.withLock { (state) throws(FaceKitError) -> PendingFaces in
            if state.isFinished { startVideo(&state) }
            return reporting.report(try state.tracking.track(image, timestampMs: timestampMs))
        }
    }

    /// Tracks frame `index` of the video, `image` shown at `timestampMs`, and hands back every
    /// frame given so far whose faces are described and whose tracking IDs are final, oldest
    /// first: none, this one, or several.
    ///
    /// The frame is described on a thread of its own while the caller reads the next one
    /// (``processInBackground(_:timestampMs:)``), so a frame comes back from a later call; one
    /// whose IDs wait for a decision (a face that may be the person of an earlier shot) comes back
    /// once they are decided, with the frames after it. ``finishVideo()`` hands back the rest.
    ///
    /// ```swift
    /// let video = try VideoReader(contentsOfFile: "clip.mp4")
    /// for frame in video {
    ///     for tracked in try tracker.track(frame.image!, index: frame.index, timestampMs: frame.timestampMs) {
    ///         print(tracked.index, tracked.faces.map { $0.trackingID! })
    ///     }
    /// }
    /// for tracked in try tracker.finishVideo() { print(tracked.index, tracked.faces.map { $0.trackingID! }) }
    /// ```
    public func track(_ image: FaceImage, index: Int, timestampMs: Double) throws(FaceKitError) -> [TrackedVideoFrame] {
        try state.withLock { (state) throws(FaceKitError) -> [TrackedVideoFrame] in
            if state.isFinished { startVideo(&state) }
            let tracked = try state.tracking.track(image, timestampMs: timestampMs)
            let ids = tracked.faces.map(\.id)
            state.waiting.append(WaitingFrame(index: index, timestampMs: timestampMs, faces: reporting.report(tracked), ids: ids))
            return try Self.takeFinalFrames(from: &state, waiting: false)
        }
    }

    /// Ends the video given to ``track(_:index:timestampMs:)``: every frame not yet handed back,
    /// oldest first, their IDs now final (each track's decided from all its descriptors). The
    /// next frame given starts a new video, whose IDs start again from 0; until then
    /// ``videoTrackIDs()`` and ``joinedTrackIDs()`` describe the video ended.
    public func finishVideo() throws(FaceKitError) -> [TrackedVideoFrame] {
        try state.withLock { (state) throws(FaceKitError) -> [TrackedVideoFrame] in
            state.tracking.finishIDs()
            state.isFinished = true
            return try Self.takeFinalFrames(from: &state, waiting: true)
        }
    }

    /// The waiting frames, from the oldest, while their IDs are final and (unless `waiting`) their
    /// faces described. A frame that could not be described ends the video there: the frames
    /// after it are dropped, and the error thrown.
    private static func takeFinalFrames(from state: inout State, waiting: Bool) throws(FaceKitError) -> [TrackedVideoFrame] {
        let numbers = state.tracking.spans.decidedIDs
        var taken: [TrackedVideoFrame] = []
        var count = 0
        for frame in state.waiting {
            guard frame.ids.allSatisfy({ numbers[$0] != nil }), waiting || frame.faces.isReady else { break }
            count += 1
            let faces: [Face]
            do {
                faces = try frame.faces.faces()
            } catch {
                state.waiting.removeAll()
                throw error
            }
            taken.append(TrackedVideoFrame(
                index: frame.index, timestampMs: frame.timestampMs,
                faces: faces.map { face in
                    var face = face
                    face.trackingID = face.trackingID.flatMap { numbers[$0] }
                    return face
                }))
        }
        state.waiting.removeFirst(count)
        return taken
    }

    /// Every track of this video, with its descriptors: for ``joinedTrackIDs()``. Reading it
    /// waits for the descriptors still computing.
    package var joining: TrackJoining {
        state.withLock { state in
            state.tracking.recordDescriptors(waiting: true)
            return state.tracking.spans
        }
    }

    /// The tracks of this video that are one person seen in different shots, joined now that
    /// every track's descriptors are known (`TrackJoining`): each joined ID mapped to the ID it
    /// takes. Empty without re-identification. Call at the end of a video, before ``reset()``.
    public func joinedTrackIDs() -> [Int: Int] { joining.joinedIDs() }

    /// Every track's final ID (`TrackJoining.videoIDs()`), by the provisional ID
    /// ``process(_:timestampMs:)`` gave it: joined tracks share one, and they are numbered 0, 1,
    /// 2... in order of appearance. Call at the end of a video, before ``reset()``.
    public func videoTrackIDs() -> [Int: Int] { joining.videoIDs() }

    /// The descriptor the person with the final ID `trackingID` is named by (match it with
    /// ``KnownPeople/match(_:)->KnownPeople.Match``): the mean of their first track's
    /// descriptors (its faces' and those re-identification took), of its first 30 s when it
    /// stays longer. It is settled once that track has ended for good or has been on screen
    /// 30 s, as IDs are decided, so a person can be named while the video goes on; later tracks
    /// of the person keep that name. `nil` until then, and for a person none of whose first
    /// track's faces was described; every person's is settled once the video is done
    /// (``finishVideo()``, or the end of ``frames(of:)``).
    public func personDescriptor(ofTrack trackingID: Int) -> FaceDescriptor? {
        settledPersonDescriptors()[trackingID] ?? nil
    }

    /// ``personDescriptor(ofTrack:)`` of every person settled so far, by final ID (`nil` for one
    /// with no descriptor): what `facekit track --known` names rows by as they stream out.
    package func settledPersonDescriptors() -> [Int: FaceDescriptor?] {
        state.withLock { $0.tracking.spans.personDescriptors }
    }

    /// ``personDescriptor(ofTrack:)`` of every person of the video, as at its end (waiting for the
    /// descriptors still computing): for the commands that name a video's people once it is done.
    package func videoPersonDescriptors() -> [Int: FaceDescriptor?] { joining.videoPersonDescriptors() }

    /// Forgets every face seen so far, for a new video, whose IDs start again from 0: a video's
    /// IDs then do not depend on the videos tracked before it (`facekit track --shard`).
    public func reset() {
        state.withLock { startVideo(&$0) }
    }

    private func startVideo(_ state: inout State) {
        reporting.reset()
        state.tracking.reset()
        state.waiting.removeAll()
        state.isFinished = false
    }
}
