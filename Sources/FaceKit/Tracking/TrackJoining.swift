import Foundation

/// Joins the tracks of one video that are the same person seen in different shots: after the
/// video ends, when every track's descriptors are known, rather than at the first frame of a new
/// track, whose one descriptor may be of a face half turned or blurred by the cut.
///
/// Tracks are taken in order of appearance; each joins the earlier group whose every track's
/// mean descriptor is within ``maximumDistance`` of its own (complete linkage: one look-alike in a
/// group is not enough) and none of whose tracks is on screen at the same time as it, the
/// closest such group when there are several. The group keeps its first track's ID.
///
/// ```swift
/// var joining = TrackJoining()
/// joining.record(id: 0, timestampMs: 0, descriptor: miranda)
/// joining.record(id: 3, timestampMs: 2800, descriptor: mirandaAgain)
/// joining.joinedIDs()   // [3: 0]
/// ```
public struct TrackJoining: Sendable {
    /// Largest distance between two tracks' mean descriptors for them to be one person: chosen on
    /// the development clips (docs/accuracy.md, "Tracks across cuts"), below dlib's 0.6, because
    /// an extra ID costs less than one ID shared by two people.
    public static let defaultMaximumDistance = 0.5

    public var maximumDistance: Double

    private struct Span {
        var firstMs: Double
        var lastMs: Double
        var descriptors: [FaceDescriptor] = []
    }

    private var spans: [Int: Span] = [:]

    public init(maximumDistance: Double = TrackJoining.defaultMaximumDistance) {
        self.maximumDistance = maximumDistance
    }

    /// Records that track `id` was on screen at `timestampMs`, with a descriptor of its face when
    /// one was computed.
    public mutating func record(id: Int, timestampMs: Double, descriptor: FaceDescriptor? = nil) {
        var span = spans[id] ?? Span(firstMs: timestampMs, lastMs: timestampMs)
        span.firstMs = min(span.firstMs, timestampMs)
        span.lastMs = max(span.lastMs, timestampMs)
        if let descriptor { span.descriptors.append(descriptor) }
        spans[id] = span
    }

    /// Forgets every track: for a new video.
    public mutating func reset() { spans.removeAll() }

    /// Each joined track's ID mapped to the ID of the group it joined; tracks that join no group
    /// are not listed.
    public func joinedIDs() -> [Int: Int] {
        let order = spans.keys.sorted { (spans[$0]!.firstMs, $0) < (spans[$1]!.firstMs, $1) }
        let means = spans.compactMapValues { $0.descriptors.isEmpty ? nil : FaceDescriptor.mean(of: $0.descriptors) }
        var groups: [(id: Int, members: [Int])] = []
        var joined: [Int: Int] = [:]
        for id in order {
            var best: (group: Int, distance: Double)?
            if let mean = means[id] {
                for (index, group) in groups.enumerated() {
                    let apart = group.members.allSatisfy { spans[$0]!.lastMs < spans[id]!.firstMs || spans[id]!.lastMs < spans[$0]!.firstMs }
                    guard apart else { continue }
                    let distances = group.members.map { member in means[member].map { mean.distance(to: $0) } ?? .infinity }
                    let farthest = distances.max() ?? .infinity
                    if farthest <= maximumDistance, farthest < (best?.distance ?? .infinity) { best = (index, farthest) }
                }
            }
            if let best {
                groups[best.group].members.append(id)
                joined[id] = groups[best.group].id
            } else {
                groups.append((id, [id]))
            }
        }
        return joined
    }

    /// Every track's ID for the whole video: a joined track takes its group's ID (``joinedIDs()``),
    /// then the groups are numbered 0, 1, 2... in order of appearance, so that the IDs count the
    /// people the video shows and no number is missing where a track joined an earlier one. Each
    /// command that writes or draws a video's IDs (`track`, `annotate`, `group`, `report`) takes
    /// them from here, so that they agree.
    ///
    /// ```swift
    /// joining.joinedIDs()   // [2: 0]: tracks 0 to 6, the third joined the first
    /// joining.videoIDs()    // [0: 0, 1: 1, 2: 0, 3: 2, 4: 3, 5: 4, 6: 5]
    /// ```
    public func videoIDs(joining: Bool = true) -> [Int: Int] {
        let joined = joining ? joinedIDs() : [:]
        let order = spans.keys.sorted { (spans[$0]!.firstMs, $0) < (spans[$1]!.firstMs, $1) }
        var numbers: [Int: Int] = [:]
        for id in order where joined[id] == nil { numbers[id] = numbers.count }
        return Dictionary(uniqueKeysWithValues: order.map { ($0, numbers[joined[$0] ?? $0]!) })
    }

    /// The descriptors recorded for track `id`, oldest first.
    public func descriptors(of id: Int) -> [FaceDescriptor] { spans[id]?.descriptors ?? [] }

    /// The distance between two tracks' mean descriptors, `nil` when either has none: for
    /// measuring the threshold.
    public func distance(between first: Int, and second: Int) -> Double? {
        guard let a = spans[first]?.descriptors, let b = spans[second]?.descriptors, !a.isEmpty, !b.isEmpty else {
            return nil
        }
        return FaceDescriptor.mean(of: a).distance(to: FaceDescriptor.mean(of: b))
    }
}
