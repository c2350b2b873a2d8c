import Foundation

/// A low-pass filter whose cutoff rises with speed, so that a still value stops trembling and a
/// moving one does not lag: the One Euro filter of Casiez, Roussel and Vogel ("1€ Filter: A
/// Simple Speed-based Low-pass Filter for Noisy Input in Interactive Systems", CHI 2012).
///
/// Each new value is blended with the last filtered one by a weight that depends on the time
/// since it and on the cutoff frequency, which is `minimumCutoff` plus `speedCoefficient` times
/// the (itself low-passed) speed. Speeds are divided by a `scale` given with each value, so one
/// set of parameters serves faces of any size: for a face, the scale is its width, and speed is
/// in face widths per second.
///
/// ```swift
/// var filter = OneEuroFilter()
/// filter.filter(100, timestampMs: 0, scale: 50)     // 100 (the first value passes)
/// filter.filter(101, timestampMs: 40, scale: 50)    // ≈ 100.3: a small step is mostly noise
/// ```
struct OneEuroFilter: Sendable {
    /// How strongly a filter smooths.
    struct Parameters: Sendable, Equatable {
        /// Cutoff in hertz for a value at rest: lower is steadier.
        var minimumCutoff: Double
        /// Cutoff increase in hertz per unit of speed (scales per second): higher follows motion
        /// with less lag.
        var speedCoefficient: Double
        /// Cutoff in hertz of the filter that smooths the speed estimate itself.
        var speedCutoff: Double = 1
    }

    var parameters: Parameters
    private var last: (value: Double, speed: Double, timestampMs: Double)?

    init(parameters: Parameters = Parameters(minimumCutoff: 1, speedCoefficient: 1)) {
        self.parameters = parameters
    }

    /// The filtered value of `value`, seen at `timestampMs`. A timestamp that does not increase
    /// restarts the filter from `value`.
    mutating func filter(_ value: Double, timestampMs: Double, scale: Double) -> Double {
        guard let last, timestampMs > last.timestampMs, value.isFinite, last.value.isFinite else {
            self.last = (value, 0, timestampMs)
            return value
        }
        let seconds = (timestampMs - last.timestampMs) / 1000
        let rawSpeed = (value - last.value) / seconds / max(scale, 1e-9)
        let speed = Self.blend(rawSpeed, last.speed, cutoff: parameters.speedCutoff, seconds: seconds)
        let cutoff = parameters.minimumCutoff + parameters.speedCoefficient * abs(speed)
        let filtered = Self.blend(value, last.value, cutoff: cutoff, seconds: seconds)
        self.last = (filtered, speed, timestampMs)
        return filtered
    }

    /// A first-order low-pass step: the weight of the new value is 1 / (1 + tau / dt), with
    /// tau = 1 / (2 pi cutoff).
    static func blend(_ new: Double, _ old: Double, cutoff: Double, seconds: Double) -> Double {
        let tau = 1 / (2 * Double.pi * cutoff)
        let weight = 1 / (1 + tau / seconds)
        return old + weight * (new - old)
    }
}
