import Foundation

/// One line of standard error that keeps being redrawn on a terminal, the mechanism behind the
/// progress of `analyze` and `track`: it redraws at most twice a second, first after half a
/// second (so short jobs never show it), and can be erased so that only real messages stay on
/// screen. A disabled line (stderr not a terminal, or `--quiet`) writes nothing.
final class StatusLine {
    private let output: any TextOutput
    let enabled: Bool
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var lastDrawn: ContinuousClock.Instant
    private var drawn = false

    init(output: any TextOutput, enabled: Bool) {
        self.output = output
        self.enabled = enabled
        started = clock.now
        lastDrawn = started
    }

    /// Seconds since the line was created.
    var elapsedSeconds: Double {
        let duration = clock.now - started
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// Redraws with `text()` if half a second has passed since the last time.
    func update(_ text: () -> String) {
        guard enabled, clock.now - lastDrawn >= .milliseconds(500) else { return }
        lastDrawn = clock.now
        drawn = true
        output.write("\r\u{1B}[K" + text())
        output.flush()
    }

    /// Erases the line if it was drawn.
    func erase() {
        guard enabled, drawn else { return }
        output.write("\r\u{1B}[K")
        output.flush()
        drawn = false
    }
}
