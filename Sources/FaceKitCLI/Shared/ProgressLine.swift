import Foundation
import FaceKitArguments

/// The progress line `facekit track` and `facekit annotate` keep redrawing on a terminal's
/// standard error: `clip.mp4: frame 120 of ~300, analysing 24.5 frames/s, about 7 s left`.
///
/// `frame ... of ~...` is how far reading has gone, the total being the container's estimate cut
/// at `--end`. The speed counts analysed frames only, from the first analysed one on, so neither
/// the frames `--every` skips nor reading past the frames before `--start` makes it look faster
/// or slower than the analysis is; the time left is the frames still to analyse at that speed.
/// The line fits the terminal (the path is shortened from the front, then the speed left out)
/// and is erased when the video is done. A disabled line (stderr not a terminal, or `--quiet`)
/// writes nothing.
final class ProgressLine {
    private let line: StatusLine
    private let source: String
    private let estimate: FrameSampler.Estimate
    private let clock = ContinuousClock()
    /// When the first analysed frame was done, and how many were then.
    private var firstAnalysed: (instant: ContinuousClock.Instant, count: Int)?

    init(
        output: any TextOutput, enabled: Bool, source: String, estimate: FrameSampler.Estimate,
        terminalColumns: (() -> Int)? = nil, redrawInterval: Duration = .milliseconds(500)
    ) {
        line = StatusLine(
            output: output, enabled: enabled, terminalColumns: terminalColumns, redrawInterval: redrawInterval)
        self.source = source
        self.estimate = estimate
    }

    /// Counts a frame just read (and analysed, or skipped), then redraws the line if half a
    /// second has passed since the last time.
    func update(framesRead: Int, framesAnalysed: Int) {
        guard line.enabled else { return }
        if firstAnalysed == nil, framesAnalysed > 0 { firstAnalysed = (clock.now, framesAnalysed) }
        line.update { columns in
            var rate: Double?
            if let firstAnalysed, framesAnalysed > firstAnalysed.count {
                let seconds = StatusLine.seconds(clock.now - firstAnalysed.instant)
                if seconds > 0 { rate = Double(framesAnalysed - firstAnalysed.count) / seconds }
            }
            return Self.text(
                source: source, framesRead: framesRead, framesAnalysed: framesAnalysed, estimate: estimate,
                analysedPerSecond: rate, columns: columns)
        }
    }

    /// Erases the line.
    func finish() { line.erase() }

    /// The words of the line, without the terminal codes, fitted into `columns` where it can be.
    static func text(
        source: String, framesRead: Int, framesAnalysed: Int, estimate: FrameSampler.Estimate,
        analysedPerSecond rate: Double?, columns: Int = .max
    ) -> String {
        let name = MessageText.escaped(source)
        let position = "frame \(framesRead)" + (estimate.framesToRead.map { " of ~\($0)" } ?? "")
        let speed = rate.map { "analysing " + (NumberFormat.decimal($0, fractionDigits: 1) ?? "0") + " frames/s" }
        var timeLeft: String?
        if let rate, rate > 0, let total = estimate.framesToAnalyse, total > framesAnalysed {
            timeLeft = "about \(Int((Double(total - framesAnalysed) / rate).rounded(.up))) s left"
        }
        let shortNameColumns = 12
        for details in [[position, speed, timeLeft], [position, timeLeft]] {
            let tail = ": " + details.compactMap { $0 }.joined(separator: ", ")
            let room = columns - TerminalWidth.columns(of: tail)
            if room >= min(shortNameColumns, TerminalWidth.columns(of: name)) {
                return TerminalWidth.suffix(name, fitting: room) + tail
            }
        }
        return [position, timeLeft].compactMap { $0 }.joined(separator: ", ")
    }
}
