import Foundation

/// The progress line `facekit track` keeps redrawing on a terminal's standard error:
/// `clip.mp4: frame 120 of ~300, 24.5 frames/s, about 7 s left`.
///
/// It redraws at most twice a second, first after half a second, and erases itself when done, so only real messages stay
/// on screen. A disabled line (stderr not a terminal, or `--quiet`) writes nothing.
final class ProgressLine {
    private let line: StatusLine
    private let source: String
    private let declaredFrames: Int

    init(output: any TextOutput, enabled: Bool, source: String, declaredFrames: Int) {
        line = StatusLine(output: output, enabled: enabled)
        self.source = source
        self.declaredFrames = declaredFrames
    }

    /// Redraws the line if half a second has passed since the last time; `framesRead` counts
    /// decoded and skipped frames alike, since both move through the file.
    func update(framesRead: Int) {
        line.update {
            let elapsed = line.elapsedSeconds
            let rate = elapsed > 0 ? Double(framesRead) / elapsed : 0
            return Self.text(source: source, framesRead: framesRead, declaredFrames: declaredFrames, framesPerSecond: rate)
        }
    }

    /// Erases the line.
    func finish() { line.erase() }

    /// The words of the line, without the terminal codes.
    static func text(source: String, framesRead: Int, declaredFrames: Int, framesPerSecond: Double) -> String {
        var text = MessageText.escaped(source) + ": frame \(framesRead)"
        if declaredFrames > 0 { text += " of ~\(declaredFrames)" }
        text += ", " + (NumberFormat.decimal(framesPerSecond, fractionDigits: 1) ?? "0") + " frames/s"
        if declaredFrames > framesRead, framesPerSecond > 0 {
            text += ", about \(Int((Double(declaredFrames - framesRead) / framesPerSecond).rounded(.up))) s left"
        }
        return text
    }
}
