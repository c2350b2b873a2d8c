import Foundation

// `package` (the tools see it, users of the library do not): facekit-train computes the video eye
// model's features relative to the runtime's own open level.

/// How open one person's eye usually is: the upper quartile of its recent eye aspect ratios.
///
/// A still photo cannot tell a narrow open eye from a closed one: one person's closed-eye ratio
/// (about 0.2) is another's open one. In video the same eye is seen again and again, so its own
/// recent level is the yardstick: a blink drops the ratio to about 60% of it, whoever blinks.
/// The level is the 75th percentile of the ratios of the last ``window`` milliseconds, so blinks
/// (a few percent of the time) and closures shorter than a quarter of the window do not pull it
/// down. It is unknown until ``minimumSamples`` ratios have been seen.
///
/// ```swift
/// var level = EyeOpenLevel()
/// for (t, ratio) in [(0.0, 0.30), (33, 0.31), (67, 0.29)] { level.record(ratio, timestampMs: t) }
/// level.openLevel               // nil: 3 samples are too few
/// ```
package struct EyeOpenLevel: Sendable {
    /// How far back the ratios count, in milliseconds.
    package static let window = 10_000.0
    /// Ratios needed before ``openLevel`` is known.
    package static let minimumSamples = 10
    /// Ratios kept at most, so a long window at a high frame rate stays cheap.
    static let capacity = 300

    private var samples: [(timestampMs: Double, ratio: Double)] = []

    package init() {}

    /// Adds the eye's aspect ratio seen at `timestampMs` (timestamps do not go backwards).
    package mutating func record(_ ratio: Double, timestampMs: Double) {
        samples.append((timestampMs, ratio))
        let oldest = timestampMs - Self.window
        let stale = samples.firstIndex { $0.timestampMs >= oldest } ?? samples.count
        samples.removeFirst(max(stale, samples.count - Self.capacity))
    }

    /// The eye's usual open aspect ratio, or `nil` while fewer than ``minimumSamples`` are known.
    package var openLevel: Double? {
        guard samples.count >= Self.minimumSamples else { return nil }
        let sorted = samples.map(\.ratio).sorted()
        return sorted[Int((Double(sorted.count - 1) * 0.75).rounded())]
    }

    /// The video eye model's feature for `ratio`: its logarithm relative to ``openLevel`` (0 = as
    /// open as usual, about -0.5 for a closed eye); `nil` while the level is unknown.
    package func relativeOpenness(_ ratio: Double) -> Double? {
        guard let level = openLevel, level > 0, ratio > 0 else { return nil }
        return log(ratio / level)
    }

    /// The feature of a newly seen `ratio`, judged against the level before it (so a frame never
    /// vouches for itself), after which the ratio is recorded. Training and run time both call this.
    package mutating func observe(_ ratio: Double, timestampMs: Double) -> Double? {
        let relative = relativeOpenness(ratio)
        record(ratio, timestampMs: timestampMs)
        return relative
    }
}
