import Testing

@testable import FaceKitCLI

@Suite("Live delay")
struct LiveDelayTests {
    private static let start = ContinuousClock.now

    private static func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    @Test("a stream analysed slower than it plays skips the frames over the limit, and catches up")
    func slowAnalysis() {
        var delay = LiveDelay(maximumSeconds: 1)
        let first = delay.isLate(timestampMs: 5000, now: Self.at(0))
        #expect(!first, "the first frame sets the clocks")
        // Frame k (25 frames/s) is done 0.08 s after the one before: twice as slow as the stream.
        var skipped = 0
        var wall = 0.0
        for k in 1..<250 {
            if delay.isLate(timestampMs: 5000 + Double(k) * 40, now: Self.at(wall)) {
                skipped += 1
                wall += 0.001  // read, not analysed
            } else {
                wall += 0.08
            }
        }
        #expect(skipped > 100 && skipped < 150, "about every other frame: \(skipped)")
        #expect(delay.largestSeconds <= 1)
    }

    @Test("a source faster than real time (a file piped in) is never late")
    func fasterThanRealTime() {
        var delay = LiveDelay(maximumSeconds: 0.5)
        for k in 0..<1000 {
            let late = delay.isLate(timestampMs: Double(k) * 40, now: Self.at(Double(k) * 0.004))
            #expect(!late)
        }
    }

    @Test("a timestamp that jumps back (a restarted stream) sets the clocks again")
    func restartedStream() {
        var delay = LiveDelay(maximumSeconds: 1)
        _ = delay.isLate(timestampMs: 60_000, now: Self.at(0))
        let behind = delay.isLate(timestampMs: 60_040, now: Self.at(5))
        let restarted = delay.isLate(timestampMs: 0, now: Self.at(5.1))
        let next = delay.isLate(timestampMs: 40, now: Self.at(5.2))
        #expect(behind, "five seconds behind")
        #expect(!restarted, "a new stream clock")
        #expect(!next)
    }
}
