import Foundation

/// Gives each face box of successive frames a tracking ID that stays with the same face: the
/// tracking policy, free of native code.
///
/// Every frame, each live track predicts where its face is now (constant velocity from its past
/// boxes); detections are matched to tracks greedily by intersection over union with that
/// prediction (or with the last seen box); a matched detection takes the track's ID, an
/// unmatched one starts a new track with a new ID. A track that finds no detection survives
/// ``TrackerConfiguration/maximumMissedFrames`` analysed frames, so a face hidden for a moment
/// keeps its ID; after that it is dropped.
///
/// Re-identification: given face descriptors (``update(boxes:timestampMs:descriptor:)``), a
/// detection that overlaps no live track is compared by appearance with the live tracks left
/// unmatched this frame and with the tracks dropped in the last
/// ``TrackerConfiguration/reidentificationWindowMs``; the closest one within
/// ``TrackerConfiguration/maximumDescriptorDistance`` lends it its ID, so a face keeps its ID
/// through re-entries and long gaps. A track matched by overlap in the same frame is never a
/// candidate: one person is not in two places at once. Last, a detection still unclaimed takes
/// the ID of an unmatched live track whose predicted centre is close enough
/// (``Track/reacquisitionScore(for:at:)``: the allowance grows with the frames missed) unless
/// their descriptors say they are different people (``FaceDescriptorDistance/notSamePerson``): a
/// face whose box shrank while it was being covered predicts its motion short, and comes back a
/// little ahead of its prediction. When exactly one track is missing and exactly one detection
/// is unclaimed, and their descriptors say they may be the same person, the detection takes the
/// track's ID wherever it is: a face that turned away and back (``reacquire(_:boxes:strangers:timestampMs:)``). Descriptors are asked for only when
/// needed: for such unmatched detections, and for a matched track every
/// ``TrackerConfiguration/descriptorRefreshFrames`` frames when its match is unambiguous (no
/// other detection overlaps its prediction), so a crossing does not teach it the wrong face.
///
/// ```swift
/// var tracker = BoxTracker()
/// tracker.update(boxes: [CGRect(x: 10, y: 10, width: 50, height: 50)], timestampMs: 0)    // [0]
/// tracker.update(boxes: [CGRect(x: 14, y: 10, width: 50, height: 50),
///                        CGRect(x: 300, y: 10, width: 50, height: 50)], timestampMs: 40) // [0, 1]
/// ```
package struct BoxTracker: Sendable {
    package let configuration: TrackerConfiguration
    /// Live tracks, oldest first.
    private(set) var tracks: [Track] = []
    /// Dropped tracks that still have descriptors and were seen within the re-identification
    /// window, oldest first.
    private(set) var lostTracks: [Track] = []
    private var nextID = 0

    package init(configuration: TrackerConfiguration = TrackerConfiguration()) {
        self.configuration = configuration
    }

    /// IDs of the tracks alive now: seen in the last frame or missed for no longer than allowed.
    package var liveTrackIDs: [Int] { tracks.map(\.id) }

    /// IDs of dropped tracks that re-identification may still bring back.
    package var lostTrackIDs: [Int] { lostTracks.map(\.id) }

    /// The tracking ID of each of `boxes` (same order), seen at `timestampMs`, by overlap and
    /// motion only. Timestamps should increase from call to call; a repeated or earlier one
    /// predicts no motion.
    package mutating func update(boxes: [CGRect], timestampMs: Double) -> [Int] {
        update(boxes: boxes, timestampMs: timestampMs) { (_: Int) throws(Never) -> [Float]? in nil }
    }

    /// The tracking ID of each of `boxes`, with re-identification: `descriptor(i)` gives the face
    /// descriptor of `boxes[i]` (called at most once per box, and only when needed), or `nil`
    /// when none can be computed for it; its errors are passed on, with the tracker unchanged.
    package mutating func update<E: Error>(
        boxes: [CGRect], timestampMs: Double, descriptor: (Int) throws(E) -> [Float]?
    ) throws(E) -> [Int] {
        try update(boxes: boxes, timestampMs: timestampMs) { (index) throws(E) -> PendingDescriptor? in
            try descriptor(index).map { PendingDescriptor($0) }
        }
    }

    /// ``update(boxes:timestampMs:descriptor:)`` with descriptors that may still be computing
    /// (``DescriptorWorker``): `describe(i)` starts the descriptor of `boxes[i]`, and the tracker
    /// waits for it only when a decision needs it now.
    mutating func update<E: Error>(
        boxes: [CGRect], timestampMs: Double, describe: (Int) throws(E) -> PendingDescriptor?
    ) throws(E) -> [Int] {
        // Descriptors first (they may throw), so that a failure leaves the tracker as it was.
        var cache = [Int: PendingDescriptor?]()
        func lookUp(_ index: Int) throws(E) -> PendingDescriptor? {
            if let known = cache[index] { return known }
            let value = try describe(index)
            cache[index] = value
            return value
        }
        let plan = matchByOverlap(boxes: boxes, timestampMs: timestampMs)
        var refreshes: [(row: Int, descriptor: PendingDescriptor)] = []
        var strangers: [(column: Int, descriptor: PendingDescriptor)] = []
        for (row, column) in plan where isUnambiguous(row: row, column: column, boxes: boxes, at: timestampMs)
            && tracks[row].needsDescriptor(refreshFrames: configuration.descriptorRefreshFrames)
        {
            if let value = try lookUp(column) { refreshes.append((row, value)) }
        }
        let matchedColumns = Set(plan.map(\.column))
        for column in boxes.indices where !matchedColumns.contains(column) {
            if let value = try lookUp(column) { strangers.append((column, value)) }
        }
        return apply(plan: plan, refreshes: refreshes, strangers: strangers, boxes: boxes, timestampMs: timestampMs)
    }

    /// Records faces followed from the previous frame without a detection (``FaceTracker`` moves
    /// them by optical flow): each live track named in `boxes` is seen at its box, the others
    /// miss this frame. An ID that is not live is ignored.
    mutating func follow(_ boxes: [Int: CGRect], timestampMs: Double) {
        for index in tracks.indices {
            if let box = boxes[tracks[index].id] {
                tracks[index].observe(box, at: timestampMs, smoothing: configuration.velocitySmoothing, detected: false)
            } else {
                tracks[index].miss()
            }
        }
        lostTracks.removeAll { timestampMs - $0.lastTimestampMs > configuration.reidentificationWindowMs }
        retireMissedTracks()
    }

    /// A cut to another shot: every live track ends now. Those with descriptors wait among the
    /// lost ones, where only their descriptors can bring them back (``maximumDescriptorDistance``):
    /// in a new shot neither position nor "the only face missing" says who a face is.
    package mutating func endShot() {
        for track in tracks where !track.descriptors.isEmpty {
            var ended = track
            ended.endShot()
            lostTracks.append(ended)
        }
        tracks.removeAll()
        for index in lostTracks.indices { lostTracks[index].endShot() }
    }

    /// Forgets every track, lost ones included; the next IDs continue from where they were, so an
    /// ID is never reused.
    package mutating func removeAllTracks() {
        tracks.removeAll()
        lostTracks.removeAll()
    }

    // MARK: - Steps

    /// Overlap matching of live tracks (rows) to boxes (columns).
    private func matchByOverlap(boxes: [CGRect], timestampMs: Double) -> [(row: Int, column: Int)] {
        let scores = tracks.map { track in boxes.map { track.overlap(with: $0, at: timestampMs) } }
        return GreedyAssignment.pairs(scores: scores, minimum: configuration.minimumOverlap)
    }

    /// Whether `boxes[column]` is the only box overlapping track `row` enough to match it.
    private func isUnambiguous(row: Int, column: Int, boxes: [CGRect], at timestampMs: Double) -> Bool {
        boxes.indices.allSatisfy {
            $0 == column || tracks[row].overlap(with: boxes[$0], at: timestampMs) < configuration.minimumOverlap
        }
    }

    private mutating func apply(
        plan: [(row: Int, column: Int)], refreshes: [(row: Int, descriptor: PendingDescriptor)],
        strangers: [(column: Int, descriptor: PendingDescriptor)], boxes: [CGRect], timestampMs: Double
    ) -> [Int] {
        var ids = [Int?](repeating: nil, count: boxes.count)
        for (row, column) in plan {
            tracks[row].observe(boxes[column], at: timestampMs, smoothing: configuration.velocitySmoothing)
            ids[column] = tracks[row].id
        }
        for (row, descriptor) in refreshes {
            tracks[row].addDescriptor(descriptor, limit: configuration.descriptorsPerTrack)
        }
        let matchedRows = Set(plan.map(\.row))
        lostTracks.removeAll { timestampMs - $0.lastTimestampMs > configuration.reidentificationWindowMs }

        // Re-identification: unmatched detections against unmatched live tracks and lost tracks.
        let candidates: [(live: Bool, index: Int)] =
            tracks.indices.filter { !matchedRows.contains($0) }.map { (true, $0) }
            + lostTracks.indices.map { (false, $0) }
        if !strangers.isEmpty && !candidates.isEmpty {
            let scores = candidates.map { candidate in
                let track = candidate.live ? tracks[candidate.index] : lostTracks[candidate.index]
                return strangers.map { stranger in track.distance(to: stranger.descriptor).map { -$0 } ?? -.infinity }
            }
            var revived: [Int] = []
            for (row, column) in GreedyAssignment.pairs(scores: scores, minimum: -configuration.maximumDescriptorDistance) {
                let candidate = candidates[row]
                let stranger = strangers[column]
                var track = candidate.live ? tracks[candidate.index] : lostTracks[candidate.index]
                track.reappear(boxes[stranger.column], at: timestampMs)
                track.addDescriptor(stranger.descriptor, limit: configuration.descriptorsPerTrack)
                ids[stranger.column] = track.id
                if candidate.live {
                    tracks[candidate.index] = track
                } else {
                    tracks.append(track)
                    revived.append(candidate.index)
                }
            }
            for index in revived.sorted(by: >) { lostTracks.remove(at: index) }
        }

        reacquire(&ids, boxes: boxes, strangers: strangers, timestampMs: timestampMs)

        let seen = Set(ids.compactMap { $0 })
        for index in tracks.indices where !seen.contains(tracks[index].id) { tracks[index].miss() }
        retireMissedTracks()
        let descriptorsByColumn = Dictionary(strangers.map { ($0.column, $0.descriptor) }, uniquingKeysWith: { a, _ in a })
        for (column, box) in boxes.enumerated() where ids[column] == nil {
            var track = Track(id: nextID, box: box, timestampMs: timestampMs)
            if let descriptor = descriptorsByColumn[column] {
                track.addDescriptor(descriptor, limit: configuration.descriptorsPerTrack)
            }
            tracks.append(track)
            ids[column] = nextID
            nextID += 1
        }
        return ids.map { $0! }
    }

    /// Reacquisition, after overlap and re-identification: a detection still unclaimed near where
    /// an unmatched live track's motion leads takes its ID (a face that was covered while its box
    /// shrank, so its predicted box fell short). When exactly one detection is unclaimed and
    /// exactly one track is missing (live, or else lost within the re-identification window), and
    /// their descriptors are known and do not say they are different people, it takes that ID
    /// wherever it is: a face that turned away and back, with nothing else it could be.
    private mutating func reacquire(
        _ ids: inout [Int?], boxes: [CGRect], strangers: [(column: Int, descriptor: PendingDescriptor)], timestampMs: Double
    ) {
        let claimed = Set(ids.compactMap { $0 })
        let waiting = tracks.indices.filter { !claimed.contains(tracks[$0].id) }
        let unclaimed = boxes.indices.filter { ids[$0] == nil }
        guard !unclaimed.isEmpty else { return }
        let descriptors = Dictionary(strangers.map { ($0.column, $0.descriptor) }, uniquingKeysWith: { a, _ in a })
        func alike(_ track: Track, _ column: Int) -> Bool? {
            guard let descriptor = descriptors[column], let distance = track.distance(to: descriptor) else { return nil }
            return distance <= FaceDescriptorDistance.notSamePerson
        }
        let sole = waiting.count == 1 && unclaimed.count == 1
        let scores = waiting.map { row in
            unclaimed.map { column -> Double in
                let similar = alike(tracks[row], column)
                if similar == false { return -.infinity }
                let score = tracks[row].reacquisitionScore(for: boxes[column], at: timestampMs)
                return score < 0 && sole && similar == true ? 0 : score
            }
        }
        for (row, column) in GreedyAssignment.pairs(scores: scores, minimum: 0) {
            tracks[waiting[row]].observe(boxes[unclaimed[column]], at: timestampMs, smoothing: configuration.velocitySmoothing)
            ids[unclaimed[column]] = tracks[waiting[row]].id
        }
        if waiting.isEmpty, unclaimed.count == 1, lostTracks.count == 1, !lostTracks[0].shotEnded,
            alike(lostTracks[0], unclaimed[0]) == true
        {
            var track = lostTracks.removeFirst()
            track.reappear(boxes[unclaimed[0]], at: timestampMs)
            if let descriptor = descriptors[unclaimed[0]] {
                track.addDescriptor(descriptor, limit: configuration.descriptorsPerTrack)
            }
            ids[unclaimed[0]] = track.id
            tracks.append(track)
        }
    }

    /// Drops the tracks missed for too long; those with descriptors wait among the lost ones.
    private mutating func retireMissedTracks() {
        for track in tracks where track.missedFrames > configuration.maximumMissedFrames && !track.descriptors.isEmpty {
            lostTracks.append(track)
        }
        tracks.removeAll { $0.missedFrames > configuration.maximumMissedFrames }
    }
}
