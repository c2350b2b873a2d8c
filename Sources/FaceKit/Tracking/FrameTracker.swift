import Foundation

/// The first half of a ``FaceTracker``'s work on a frame, and all its state: optical flow, the
/// detector every few frames, the 68-point model, the tracks' IDs (``BoxTracker``), cuts, and
/// the video's tracks as ``TrackJoining`` needs them to give final IDs. It finds each face of a
/// frame and its provisional ID; ``FaceReporter`` then describes them.
///
/// Its point tracker keeps the last frame's pyramid, so it is one per video; ``FaceTracker``
/// keeps it behind a lock.
///
/// ```swift
/// var tracking = try FrameTracker(detector: detector, descriptorWorker: nil, configuration: .init(), detectionInterval: 5)
/// let frame = try tracking.track(image, timestampMs: 0)
/// frame.faces.map(\.id)   // [0, 1]
/// ```
struct FrameTracker {
    let detector: FaceDetector
    /// dlib's ResNet on a thread of its own, when re-identifying.
    let descriptorWorker: DescriptorWorker?
    let detectionInterval: Int
    private let pointTracker: NativePointTracker
    private(set) var tracker: BoxTracker
    /// Faces seen in the last analysed frame, by tracking ID: what the next frame carries.
    private var followed: [Int: FaceFollower.State] = [:]
    /// Analysed frames since the detector last ran (so that the first frame is detected).
    private var framesSinceDetection = Int.max / 2
    /// Analysed frames since a followed face was lost while its track lives on.
    private var framesSinceLoss = Int.max / 2
    private var cuts = SceneCutDetector()
    /// The size of the last frame tracked: a frame of another size (a stream whose resolution
    /// changes on the way, as broadcast and adaptive streams may) starts a new shot.
    private var lastFrameSize: (width: Int, height: Int)?
    /// Every track of this video, with its descriptors as far as they are recorded.
    private(set) var spans: TrackJoining
    /// Descriptors not yet in ``spans``, in the order they were taken (which fixes the order of
    /// each track's descriptors there).
    private var unrecordedDescriptors: [(id: Int, timestampMs: Double, descriptor: PendingDescriptor)] = []
    /// The time of the last frame tracked.
    private(set) var lastTimestampMs = -Double.infinity

    var options: FaceDetectorOptions { detector.options }

    init(
        detector: FaceDetector, descriptorWorker: DescriptorWorker?, configuration: TrackerConfiguration,
        detectionInterval: Int
    ) throws(FaceKitError) {
        self.detector = detector
        self.descriptorWorker = descriptorWorker
        self.detectionInterval = detectionInterval
        tracker = BoxTracker(configuration: configuration)
        spans = TrackJoining(joining: descriptorWorker != nil)
        pointTracker = try NativePointTracker()
    }

    /// Each face found in `image`, with its provisional ID.
    mutating func track(_ image: FaceImage, timestampMs: Double) throws(FaceKitError) -> TrackedFrame {
        if let error = descriptorWorker?.takeError() { throw error }
        let reduction = FaceFollower.reduction(frameWidth: image.width, options: options)
        try pointTracker.push(image, reduction: reduction)
        let isEdit = try cuts.isCut(image)
        // New geometry is a new shot too: positions, flow and smoothing of the old size mean
        // nothing at the new one.
        let isResized = lastFrameSize.map { $0 != (image.width, image.height) } ?? false
        lastFrameSize = (image.width, image.height)
        let isCut = isEdit || isResized
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
        // A track neither live nor kept for re-identification never comes back.
        spans.retire(allBut: live.union(tracker.lostTrackIDs))
        var descriptors: [PendingDescriptor]?
        if options.descriptorMode == .all {
            // Filled in as the faces are described; their order here fixes their order in spans.
            let pending = faces.map { _ in PendingDescriptor() }
            for (face, descriptor) in zip(faces, pending) { unrecordedDescriptors.append((face.id, timestampMs, descriptor)) }
            descriptors = pending
        }
        lastTimestampMs = timestampMs
        // Final IDs as soon as they are known, whoever reads them: every command's IDs agree.
        decideIDs()
        return TrackedFrame(
            image: image, timestampMs: timestampMs, faces: faces, isCut: isCut, restartedIDs: restartedIDs,
            liveIDs: live, descriptors: descriptors)
    }

    /// Decides the final IDs that the frames tracked so far allow (``TrackJoining``), with the
    /// descriptors ready now.
    private mutating func decideIDs() {
        recordDescriptors(waiting: false)
        _ = spans.decide(atMs: lastTimestampMs, descriptorsPendingSinceMs: unrecordedDescriptors.first?.timestampMs)
    }

    /// Ends the video: every remaining track's final ID, once its descriptors are all recorded.
    mutating func finishIDs() {
        recordDescriptors(waiting: true)
        _ = spans.finish()
    }

    /// Moves the descriptors that are ready (all of them, waiting, when `waiting`) into
    /// ``spans``, oldest first.
    mutating func recordDescriptors(waiting: Bool) {
        var recorded = 0
        for (id, timestampMs, descriptor) in unrecordedDescriptors {
            guard waiting || descriptor.isReady else { break }
            let values = descriptor.value
            spans.record(id: id, timestampMs: timestampMs, descriptor: values.map(FaceDescriptor.init(values:)))
            recorded += 1
        }
        unrecordedDescriptors.removeFirst(recorded)
    }

    /// Forgets every face seen so far, for a new video, whose IDs start again from 0.
    mutating func reset() {
        tracker = BoxTracker(configuration: tracker.configuration)
        followed.removeAll()
        cuts = SceneCutDetector()
        lastFrameSize = nil
        descriptorWorker?.waitForAll()
        _ = descriptorWorker?.takeError()
        unrecordedDescriptors.removeAll()
        spans.reset()
        framesSinceDetection = Int.max / 2
        framesSinceLoss = Int.max / 2
        lastTimestampMs = -.infinity
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
    private mutating func detectFaces(in image: FaceImage, timestampMs: Double) throws(FaceKitError)
        -> (faces: [(id: Int, state: FaceFollower.State)], restarted: Set<Int>)
    {
        // Video searches upright faces only, without close-ups (docs/cli.md, "Orientation").
        let candidates = try detector.candidates(in: image, search: .video)
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
