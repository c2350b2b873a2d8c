import Foundation

/// Keeps a live source's delay bounded: a frame whose time on the stream's clock lies more than
/// `maximumSeconds` behind the wall clock is skipped, so that analysis slower than the stream
/// drops frames instead of falling further behind.
///
/// The clocks are aligned at the first frame: the delay of a later frame is the wall-clock time
/// since the first frame less its timestamp's distance from the first's. A source that sends
/// faster than real time (a file piped in) is never late, so nothing is skipped; and a frame whose
/// timestamp jumps backwards (a stream restarted) realigns the clocks.
///
/// ```swift
/// var delay = LiveDelay(maximumSeconds: 1)
/// if delay.isLate(timestampMs: frame.timestampMs, now: .now) { skipped += 1 } else { analyse(frame) }
/// ```
struct LiveDelay {
    let maximumSeconds: Double
    private var origin: (wall: ContinuousClock.Instant, streamMs: Double)?
    /// The largest delay of a frame that was analysed, in seconds.
    private(set) var largestSeconds = 0.0

    init(maximumSeconds: Double) {
        self.maximumSeconds = maximumSeconds
    }

    /// How far the frame shown at `timestampMs` lies behind the wall clock at `now`, in seconds.
    mutating func seconds(timestampMs: Double, now: ContinuousClock.Instant) -> Double {
        if let origin, timestampMs >= origin.streamMs {
            let wall = now - origin.wall
            let elapsed = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
            return elapsed - (timestampMs - origin.streamMs) / 1000
        }
        origin = (now, timestampMs)
        return 0
    }

    /// Whether the frame shown at `timestampMs` is to be skipped.
    mutating func isLate(timestampMs: Double, now: ContinuousClock.Instant) -> Bool {
        let delay = seconds(timestampMs: timestampMs, now: now)
        guard delay <= maximumSeconds else { return true }
        largestSeconds = max(largestSeconds, delay)
        return false
    }
}
