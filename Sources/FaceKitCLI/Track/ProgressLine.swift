import Foundation

/// The progress line `facekit track` keeps redrawing on a terminal's standard error:
/// `clip.mp4: frame 120 of ~300, 24.5 frames/s, about 7 s left`.
///
/// It redraws at most twice a second, first after half a second, and erases itself when done, so only real messages stay
/// on screen. A disabled line (stderr not a terminal, or `--quiet`) writes nothing.
final class ProgressLine {
    private let output: any TextOutput
    private let enabled: Bool
    private let source: String
    private let declaredFrames: Int
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    /// When the line was last drawn; the start, so the first drawing waits half a second for a
    /// meaningful speed (and short videos never show a line).
    private var lastDrawn: ContinuousClock.Instant
    private var drawn = false

    init(output: any TextOutput, enabled: Bool, source: String, declaredFrames: Int) {
        self.output = output
        self.enabled = enabled
        self.source = source
        self.declaredFrames = declaredFrames
        started = clock.now
        lastDrawn = started
    }

    /// Redraws the line if half a second has passed since the last time; `framesRead` counts
    /// decoded and skipped frames alike, since both move through the file.
    func update(framesRead: Int) {
        guard enabled else { return }
        let now = clock.now
        guard now - lastDrawn >= .milliseconds(500) else { return }
        lastDrawn = now
        drawn = true
        let elapsed = Self.seconds(now - started)
        let rate = elapsed > 0 ? Double(framesRead) / elapsed : 0
        output.write("\r\u{1B}[K" + Self.text(
            source: source, framesRead: framesRead, declaredFrames: declaredFrames, framesPerSecond: rate))
        output.flush()
    }

    /// Erases the line.
    func finish() {
        guard enabled, drawn else { return }
        output.write("\r\u{1B}[K")
        output.flush()
    }

    /// The words of the line, without the terminal codes.
    static func text(source: String, framesRead: Int, declaredFrames: Int, framesPerSecond: Double) -> String {
        var text = "\(source): frame \(framesRead)"
        if declaredFrames > 0 { text += " of ~\(declaredFrames)" }
        text += ", " + (NumberFormat.decimal(framesPerSecond, fractionDigits: 1) ?? "0") + " frames/s"
        if declaredFrames > framesRead, framesPerSecond > 0 {
            text += ", about \(Int((Double(declaredFrames - framesRead) / framesPerSecond).rounded(.up))) s left"
        }
        return text
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
