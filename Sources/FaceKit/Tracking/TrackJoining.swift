import Foundation

/// Joins the tracks of one video that are the same person seen in different shots, and gives
/// every track its final ID: the number of its person in the video.
///
/// Tracks are taken in order of appearance; each joins the earlier group whose every track's
/// mean descriptor is within ``maximumDistance`` of its own (complete linkage: one look-alike in a
/// group is not enough) and none of whose tracks is on screen at the same time as it, the
/// closest such group when there are several. Groups are numbered 0, 1, 2... in order of
/// appearance and a joined track takes its group's number, so the IDs count the people the video
/// shows and no number is missing where a track joined an earlier one.
///
/// A track's final ID is decided as soon as nothing the video still holds can change it
/// (``decide(atMs:descriptorsPendingSinceMs:)``), so that a video's rows need not wait for its
/// end: at once when no earlier group could take it (no group whose tracks have all ended before
/// it appeared); otherwise once it has ended (``retire(allBut:)``: the tracker can no longer bring
/// it back), with every descriptor it will have, which is the decision taken at the end of the
/// video. A track still on screen ``decisionHorizonMs`` after it appeared is decided then, from
/// the descriptors of that time: a long video's rows wait at most that long (and for the
/// tracks it could join to end, at most the tracker's re-identification window after they were
/// last seen), and a track decided so may be joined where the whole track's mean would not have
/// been, or the other way round. Decided IDs never change.
///
/// A person is named by their first track's descriptors (``personDescriptors``), settled by the
/// same rule: once that track has ended with every descriptor it will have, or from its first
/// ``decisionHorizonMs`` when it is still on screen then. Tracks that join the person later take
/// the name so decided, so a person's name is known as soon as their first track's ID could be
/// decided at the latest, and never changes.
///
/// ```swift
/// var joining = TrackJoining()
/// joining.record(id: 0, timestampMs: 0, descriptor: miranda)
/// joining.record(id: 1, timestampMs: 1200, descriptor: lacamoire)
/// joining.record(id: 2, timestampMs: 2800, descriptor: mirandaAgain)
/// joining.joinedIDs()   // [2: 0]
/// joining.videoIDs()    // [0: 0, 1: 1, 2: 0]
/// ```
package struct TrackJoining: Sendable {
    /// Largest distance between two tracks' mean descriptors for them to be one person: chosen on
    /// the development clips (docs/accuracy.md, "Tracks across cuts"), below dlib's 0.6, because
    /// an extra ID costs less than one ID shared by two people.
    package static let defaultMaximumDistance = 0.5

    /// How long after a track appears its final ID is decided at the latest: long enough that a
    /// track's mean descriptor is steady (dozens of descriptors, from its detections and
    /// re-identification), short enough that a video's rows wait a bounded time (30 s of frames
    /// is about 2 MB of one face's rows). Tracks of the development clips end before it.
    package static let defaultDecisionHorizonMs = 30_000.0

    package var maximumDistance: Double
    /// Whether tracks are joined at all: without re-identification, tracks are only numbered.
    package let isJoining: Bool
    package let decisionHorizonMs: Double

    /// A running sum of descriptors: its mean has the bits of ``FaceDescriptor/mean(of:)`` over
    /// the same descriptors in the same order, without keeping them.
    private struct DescriptorSum: Sendable {
        var values = [Float](repeating: 0, count: FaceDescriptor.length)
        var count = 0

        mutating func add(_ descriptor: FaceDescriptor) {
            for index in 0..<FaceDescriptor.length { values[index] += descriptor.values[index] }
            count += 1
        }

        var mean: FaceDescriptor? {
            guard count > 0 else { return nil }
            let total = Float(count)
            return FaceDescriptor(values: values.map { $0 / total })
        }
    }

    private struct Span: Sendable {
        var firstMs: Double
        var lastMs: Double
        var descriptors = DescriptorSum()
        /// The descriptors of the track's first ``decisionHorizonMs``, until it is decided.
        var early: DescriptorSum? = DescriptorSum()
        /// The tracker can no longer bring the track back: its span and descriptors are complete.
        var isRetired = false
    }

    private struct Group: Sendable {
        var number: Int
        var members: [Int]
        /// The descriptors the person is named by, once settled: their first track's.
        var namedBy: DescriptorSum?
    }

    private var spans: [Int: Span] = [:]
    /// Tracks recorded and not yet retired.
    private var active: Set<Int> = []
    /// Tracks recorded and not yet decided.
    private var undecided: Set<Int> = []
    private var groups: [Group] = []
    /// Indices in ``groups`` of the people whose naming descriptors are not settled yet.
    private var unnamed: [Int] = []
    /// The decided tracks' final IDs.
    private var numbers: [Int: Int] = [:]
    /// Each joined track's ID mapped to the ID of the first track of its group.
    private var joins: [Int: Int] = [:]

    package init(
        maximumDistance: Double = TrackJoining.defaultMaximumDistance, joining: Bool = true,
        decisionHorizonMs: Double = TrackJoining.defaultDecisionHorizonMs
    ) {
        self.maximumDistance = maximumDistance
        isJoining = joining
        self.decisionHorizonMs = decisionHorizonMs
    }

    /// Records that track `id` was on screen at `timestampMs`, with a descriptor of its face when
    /// one was computed. A retired track's descriptors may still come in (they are computed in
    /// the background), but not new frames.
    package mutating func record(id: Int, timestampMs: Double, descriptor: FaceDescriptor? = nil) {
        var span = spans[id] ?? Span(firstMs: timestampMs, lastMs: timestampMs)
        if spans[id] == nil {
            active.insert(id)
            undecided.insert(id)
        }
        span.firstMs = min(span.firstMs, timestampMs)
        span.lastMs = max(span.lastMs, timestampMs)
        if let descriptor {
            span.descriptors.add(descriptor)
            if timestampMs <= span.firstMs + decisionHorizonMs { span.early?.add(descriptor) }
        }
        spans[id] = span
    }

    /// Marks every track recorded so far but those in `alive` as ended for good: the tracker will
    /// never give its ID again (``BoxTracker`` neither follows it nor keeps it to re-identify).
    package mutating func retire(allBut alive: Set<Int>) {
        for id in active where !alive.contains(id) {
            spans[id]!.isRetired = true
            active.remove(id)
        }
    }

    /// Decides, in order of appearance, the final ID of every track whose ID nothing still to come
    /// can change, and returns those newly decided. `nowMs` is the time of the last frame
    /// recorded (all of whose tracks are recorded); `pendingSinceMs` the time of the oldest frame
    /// whose descriptors are still computing, `nil` when none is.
    package mutating func decide(atMs nowMs: Double, descriptorsPendingSinceMs pendingSinceMs: Double?) -> [Int: Int] {
        func complete(through timestampMs: Double) -> Bool { pendingSinceMs.map { $0 > timestampMs } ?? true }
        var decided: [Int: Int] = [:]
        let order = undecided.sorted { (spans[$0]!.firstMs, $0) < (spans[$1]!.firstMs, $1) }
        for id in order {
            let span = spans[id]!
            guard span.firstMs <= nowMs, let group = decision(for: span, atMs: nowMs, complete: complete) else { break }
            let number: Int
            if let group {
                number = groups[group].number
                joins[id] = groups[group].members[0]
                groups[group].members.append(id)
                spans[id]!.early = nil
            } else {
                // A person's first track: its early descriptors may still name them.
                number = groups.count
                unnamed.append(groups.count)
                groups.append(Group(number: number, members: [id]))
            }
            numbers[id] = number
            decided[id] = number
            undecided.remove(id)
        }
        settleNames(atMs: nowMs, complete: complete)
        return decided
    }

    /// Settles the naming descriptors of every person whose first track's descriptors can no
    /// longer change: the track ended and complete, or past ``decisionHorizonMs`` (its early ones).
    private mutating func settleNames(atMs nowMs: Double, complete: (Double) -> Bool) {
        unnamed.removeAll { index in
            let first = groups[index].members[0]
            let span = spans[first]!
            if span.isRetired, complete(span.lastMs) {
                groups[index].namedBy = span.descriptors
            } else if nowMs >= span.firstMs + decisionHorizonMs, complete(span.firstMs + decisionHorizonMs), let early = span.early {
                groups[index].namedBy = early
            } else {
                return false
            }
            spans[first]!.early = nil
            return true
        }
    }

    /// The group the track `span` joins (`.some(nil)`: none, it starts its own), or `nil` while
    /// that cannot be known yet.
    private func decision(for span: Span, atMs nowMs: Double, complete: (Double) -> Bool) -> Int?? {
        guard isJoining else { return .some(nil) }
        // Groups none of whose tracks is on screen with this one. A track last seen before this
        // one appeared may still come back (the tracker re-identifies lost faces): wait for it.
        var candidates: [Int] = []
        for (index, group) in groups.enumerated() {
            var apart = true
            var certain = true
            for member in group.members {
                let other = spans[member]!
                if other.lastMs >= span.firstMs {
                    apart = false
                    break
                }
                if !other.isRetired { certain = false }
            }
            guard apart else { continue }
            guard certain else { return nil }
            candidates.append(index)
        }
        guard !candidates.isEmpty else { return .some(nil) }
        let descriptors: DescriptorSum
        if span.isRetired, complete(span.lastMs) {
            descriptors = span.descriptors
        } else if nowMs >= span.firstMs + decisionHorizonMs, complete(span.firstMs + decisionHorizonMs), let early = span.early {
            descriptors = early
        } else {
            return nil
        }
        guard let mean = descriptors.mean else { return .some(nil) }
        var best: (group: Int, distance: Double)?
        for index in candidates {
            let distances = groups[index].members.map { member in
                spans[member]!.descriptors.mean.map { mean.distance(to: $0) } ?? .infinity
            }
            let farthest = distances.max() ?? .infinity
            if farthest <= maximumDistance, farthest < (best?.distance ?? .infinity) { best = (index, farthest) }
        }
        return .some(best?.group)
    }

    /// Ends the video: every track is retired and decided.
    package mutating func finish() -> [Int: Int] {
        retire(allBut: [])
        return decide(atMs: .infinity, descriptorsPendingSinceMs: nil)
    }

    /// The final IDs decided so far, by track ID.
    package var decidedIDs: [Int: Int] { numbers }

    /// The descriptor each person is named by (the mean of their first track's descriptors, see
    /// above), by final ID, for the people whose descriptors are settled so far; `nil` for a
    /// person none of whose first track's faces was described.
    package var personDescriptors: [Int: FaceDescriptor?] {
        var settled: [Int: FaceDescriptor?] = [:]
        for group in groups { if let namedBy = group.namedBy { settled[group.number] = namedBy.mean } }
        return settled
    }

    /// Forgets every track: for a new video.
    package mutating func reset() { self = TrackJoining(maximumDistance: maximumDistance, joining: isJoining, decisionHorizonMs: decisionHorizonMs) }

    /// Each joined track's ID mapped to the ID of the first track of the group it joined, as at the
    /// end of the video (the video's tracks all retired); tracks that join no group are not listed.
    package func joinedIDs() -> [Int: Int] {
        var finished = self
        _ = finished.finish()
        return finished.joins
    }

    /// Every track's final ID, as at the end of the video: a joined track takes its group's
    /// number (``joinedIDs()``), the groups numbered 0, 1, 2... in order of appearance. Each
    /// command that writes or draws a video's IDs (`track`, `annotate`, `group`, `report`) takes
    /// them from here, so that they agree.
    ///
    /// ```swift
    /// joining.joinedIDs()   // [2: 0]: tracks 0 to 6, the third joined the first
    /// joining.videoIDs()    // [0: 0, 1: 1, 2: 0, 3: 2, 4: 3, 5: 4, 6: 5]
    /// ```
    package func videoIDs() -> [Int: Int] {
        var finished = self
        _ = finished.finish()
        return finished.numbers
    }

    /// ``personDescriptors`` as at the end of the video: every person's.
    package func videoPersonDescriptors() -> [Int: FaceDescriptor?] {
        var finished = self
        _ = finished.finish()
        return finished.personDescriptors
    }

    /// The distance between two tracks' mean descriptors, `nil` when either has none: for
    /// measuring the threshold.
    package func distance(between first: Int, and second: Int) -> Double? {
        guard let a = spans[first]?.descriptors.mean, let b = spans[second]?.descriptors.mean else { return nil }
        return a.distance(to: b)
    }
}
