import Foundation

/// Gives each face box of successive frames a tracking ID that stays with the same face: the
/// tracking policy, free of native code.
///
/// Every frame, each live track predicts where its face is now (constant velocity from its past
/// boxes); detections are matched to tracks greedily by intersection over union with that
/// prediction (or with the last seen box); a matched detection takes the track's ID, an
/// unmatched one starts a new track with a new ID. A track that finds no detection survives
/// ``TrackerConfiguration/maximumMissedFrames`` analysed frames, so a face hidden for a moment
/// keeps its ID; after that it is dropped and never matched again.
///
/// ```swift
/// var tracker = BoxTracker()
/// tracker.update(boxes: [CGRect(x: 10, y: 10, width: 50, height: 50)], timestampMs: 0)    // [0]
/// tracker.update(boxes: [CGRect(x: 14, y: 10, width: 50, height: 50),
///                        CGRect(x: 300, y: 10, width: 50, height: 50)], timestampMs: 40) // [0, 1]
/// ```
public struct BoxTracker: Sendable {
    public let configuration: TrackerConfiguration
    /// Live tracks, oldest first.
    private(set) var tracks: [Track] = []
    private var nextID = 0

    public init(configuration: TrackerConfiguration = TrackerConfiguration()) {
        self.configuration = configuration
    }

    /// IDs of the tracks alive now: seen in the last frame or missed for no longer than allowed.
    public var liveTrackIDs: [Int] { tracks.map(\.id) }

    /// The tracking ID of each of `boxes` (same order), seen at `timestampMs`. Timestamps should
    /// increase from call to call; a repeated or earlier one predicts no motion.
    public mutating func update(boxes: [CGRect], timestampMs: Double) -> [Int] {
        let scores = tracks.map { track in boxes.map { track.overlap(with: $0, at: timestampMs) } }
        var ids = [Int?](repeating: nil, count: boxes.count)
        for (row, column) in GreedyAssignment.pairs(scores: scores, minimum: configuration.minimumOverlap) {
            tracks[row].observe(boxes[column], at: timestampMs, smoothing: configuration.velocitySmoothing)
            ids[column] = tracks[row].id
        }
        let matched = Set(ids.compactMap { $0 })
        for index in tracks.indices where !matched.contains(tracks[index].id) { tracks[index].miss() }
        tracks.removeAll { $0.missedFrames > configuration.maximumMissedFrames }
        for (column, box) in boxes.enumerated() where ids[column] == nil {
            tracks.append(Track(id: nextID, box: box, timestampMs: timestampMs))
            ids[column] = nextID
            nextID += 1
        }
        return ids.map { $0! }
    }

    /// Forgets every track; the next IDs continue from where they were, so an ID is never reused.
    public mutating func removeAllTracks() { tracks.removeAll() }
}
