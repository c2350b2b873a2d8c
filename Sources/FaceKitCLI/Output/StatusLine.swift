import Foundation
import FaceKitArguments

/// One line of standard error that keeps being redrawn on a terminal, the mechanism behind the
/// progress of `analyze` and `track`: it redraws at most twice a second, first after half a
/// second (so short jobs never show it), and can be erased so that only real messages stay on
/// screen. A disabled line (stderr not a terminal, or `--quiet`) writes nothing.
///
/// Each line is cut to one column less than the terminal is wide (``TerminalWidth``, asked at
/// every redraw, so a resized window is followed): a line that wrapped could not be erased by
/// going back to the start of it, and its first part would stay on screen.
final class StatusLine {
    private let output: any TextOutput
    let enabled: Bool
    private let terminalColumns: () -> Int
    private let redrawInterval: Duration
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var lastDrawn: ContinuousClock.Instant
    private var drawn = false

    /// `terminalColumns` defaults to the width of the terminal `output` writes to;
    /// `redrawInterval` is half a second but for tests.
    init(
        output: any TextOutput, enabled: Bool, terminalColumns: (() -> Int)? = nil,
        redrawInterval: Duration = .milliseconds(500)
    ) {
        self.output = output
        self.enabled = enabled
        let descriptor = (output as? FileDescriptorOutput)?.descriptor ?? 2
        self.terminalColumns = terminalColumns ?? { TerminalWidth.columns(descriptor: descriptor) }
        self.redrawInterval = redrawInterval
        started = clock.now
        lastDrawn = started
    }

    /// Seconds since the line was created.
    var elapsedSeconds: Double { Self.seconds(clock.now - started) }

    /// Redraws with `text(columns)` if the redraw interval has passed since the last time;
    /// `columns` is the room the line has, and anything longer is cut there.
    func update(_ text: (_ columns: Int) -> String) {
        guard enabled, clock.now - lastDrawn >= redrawInterval else { return }
        lastDrawn = clock.now
        drawn = true
        let columns = max(1, terminalColumns() - 1)
        output.write("\r\u{1B}[K" + TerminalWidth.prefix(text(columns), fitting: columns))
        output.flush()
    }

    /// Erases the line if it was drawn.
    func erase() {
        guard enabled, drawn else { return }
        output.write("\r\u{1B}[K")
        output.flush()
        drawn = false
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
