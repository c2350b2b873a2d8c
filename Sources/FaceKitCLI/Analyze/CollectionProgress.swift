import Foundation

/// Progress of `facekit analyze` over a collection, on a terminal's standard error:
/// `120 of 2000 files, 340 faces, 8.1 files/s, about 230 s left`, redrawn at most twice a second
/// and replaced at the end by a one-line summary: `2000 files, 3400 faces, 3 failed, 246.1 s`.
///
/// Disabled (stderr not a terminal, or `--quiet`), it only counts: the error lines stay the only
/// output on stderr, which scripts rely on.
final class CollectionProgress {
    private let line: StatusLine
    private let output: any TextOutput
    private let total: Int
    private(set) var files = 0
    private(set) var faces = 0
    private(set) var failures = 0

    init(output: any TextOutput, enabled: Bool, total: Int) {
        line = StatusLine(output: output, enabled: enabled)
        self.output = output
        self.total = total
    }

    func record(faces found: Int, failed: Bool) {
        files += 1
        faces += found
        if failed { failures += 1 }
        line.update { Self.progressText(files: files, total: total, faces: faces, seconds: line.elapsedSeconds) }
    }

    /// Writes a message on a line of its own, erasing the progress line first.
    func interrupt(_ write: () -> Void) {
        line.erase()
        write()
    }

    /// Erases the progress line and, on a terminal, writes the summary.
    func finish() {
        line.erase()
        guard line.enabled else { return }
        output.write(Self.summaryText(files: files, faces: faces, failures: failures, seconds: line.elapsedSeconds) + "\n")
        output.flush()
    }

    static func progressText(files: Int, total: Int, faces: Int, seconds: Double) -> String {
        let rate = seconds > 0 ? Double(files) / seconds : 0
        var text = "\(files) of \(total) files, \(faces) faces, "
            + (NumberFormat.decimal(rate, fractionDigits: 1) ?? "0") + " files/s"
        if rate > 0, total > files { text += ", about \(Int((Double(total - files) / rate).rounded(.up))) s left" }
        return text
    }

    static func summaryText(files: Int, faces: Int, failures: Int, seconds: Double) -> String {
        "\(files) files, \(faces) faces, \(failures) failed, " + (NumberFormat.decimal(seconds, fractionDigits: 1) ?? "0")
            + " s"
    }
}
