import Foundation

/// Counts the blinks of one tracked face from its eye-open probabilities, frame by frame.
///
/// The eyes count as closed when every eye with a probability reads below one half (a wink is
/// not a blink). A blink is a closure seen to start and end: open, then closed for at most
/// ``maximumClosureMs``, then open again. Frames more than ``maximumGapMs`` apart break the
/// sequence, so a closure that nobody saw begin is not counted: analyse at least a few frames a
/// second (blinks last 100-400 ms) to count blinks at all.
///
/// ```swift
/// var blinks = BlinkCounter()
/// for (t, p) in [(0.0, 0.95), (33, 0.1), (67, 0.05), (100, 0.9)] {
///     blinks.record(leftEyeOpen: p, rightEyeOpen: p, timestampMs: t)
/// }
/// blinks.count   // 1
/// ```
public struct BlinkCounter: Sendable, Equatable {
    /// Longest closure, in milliseconds, that still counts as a blink.
    public static let maximumClosureMs = 1000.0
    /// Longest time between two frames for them to be part of one sequence.
    public static let maximumGapMs = 500.0

    /// Blinks seen so far.
    public private(set) var count = 0

    private enum State: Equatable {
        case unknown
        case open
        case closed(sinceMs: Double)
    }
    private var state = State.unknown
    private var lastTimestampMs = -Double.infinity

    public init() {}

    /// Takes the face's eye-open probabilities at `timestampMs`; `nil` where an eye was not judged.
    public mutating func record(leftEyeOpen: Double?, rightEyeOpen: Double?, timestampMs: Double) {
        defer { lastTimestampMs = timestampMs }
        if timestampMs - lastTimestampMs > Self.maximumGapMs { state = .unknown }
        guard let openness = [leftEyeOpen, rightEyeOpen].compactMap({ $0 }).max() else {
            state = .unknown
            return
        }
        let isOpen = openness >= 0.5
        switch (state, isOpen) {
        case (.open, false):
            state = .closed(sinceMs: timestampMs)
        case (.closed(let since), true):
            if lastTimestampMs - since <= Self.maximumClosureMs { count += 1 }
            state = .open
        case (.unknown, true):
            state = .open
        case (.unknown, false), (.open, true), (.closed, false):
            break
        }
    }

    /// Records `face`'s eye-open probabilities.
    public mutating func record(_ face: Face, timestampMs: Double) {
        record(leftEyeOpen: face.leftEyeOpenProbability, rightEyeOpen: face.rightEyeOpenProbability, timestampMs: timestampMs)
    }
}
