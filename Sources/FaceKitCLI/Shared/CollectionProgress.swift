import Foundation
import FaceKitArguments

/// Progress of `facekit analyze` over a collection, on a terminal's standard error:
/// `120 of 2000 files, 340 faces, 8.1 files/s, about 230 s left`, redrawn at most twice a second
/// and replaced at the end by a one-line summary: `2000 files, 3400 faces, 3 failed, 246.1 s`.
///
/// The total comes from `total`, which may answer `nil` for a while (the folders are still being
/// counted); until then the line reads `120 files, 340 faces, 8.1 files/s`. A resumed run starts
/// from the counts of the interrupted one, so the line and the summary cover the whole
/// collection; the speed and the time left count only this run's files. Disabled (stderr not a
/// terminal, or `--quiet`), it only counts: the error lines stay the only output on stderr, which
/// scripts rely on.
final class CollectionProgress {
    private let line: StatusLine
    private let output: any TextOutput
    private let total: () -> Int?
    private let resumedFiles: Int
    private(set) var tally: CollectionTally

    init(output: any TextOutput, enabled: Bool, total: @escaping () -> Int?, resumedFrom: CollectionTally = .init()) {
        line = StatusLine(output: output, enabled: enabled)
        self.output = output
        self.total = total
        resumedFiles = resumedFrom.files
        tally = resumedFrom
    }

    var failures: Int { tally.failures }

    /// Whether anything is drawn: standard error is a terminal and `--quiet` was not given.
    var enabled: Bool { line.enabled }

    func record(faces found: Int, failed: Bool) {
        tally.files += 1
        tally.faces += found
        if failed { tally.failures += 1 }
        line.update { _ in
            Self.progressText(
                tally, total: total(), filesThisRun: tally.files - resumedFiles, seconds: line.elapsedSeconds)
        }
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
        output.write(Self.summaryText(tally, seconds: line.elapsedSeconds) + "\n")
        output.flush()
    }

    /// `120 of 2000 files, 340 faces, 8.1 files/s, about 230 s left`; without a total,
    /// `120 files, 340 faces, 8.1 files/s`.
    static func progressText(_ tally: CollectionTally, total: Int?, filesThisRun: Int, seconds: Double) -> String {
        let rate = seconds > 0 ? Double(filesThisRun) / seconds : 0
        var text = total.map { "\(tally.files) of \($0) files, " } ?? "\(tally.files) files, "
        text += "\(tally.faces) faces, " + (NumberFormat.decimal(rate, fractionDigits: 1) ?? "0") + " files/s"
        if rate > 0, let total, total > tally.files {
            text += ", about \(Int((Double(total - tally.files) / rate).rounded(.up))) s left"
        }
        return text
    }

    /// `2000 files, 3400 faces, 3 failed, 246.1 s`.
    static func summaryText(_ tally: CollectionTally, seconds: Double) -> String {
        "\(tally.files) files, \(tally.faces) faces, \(tally.failures) failed, "
            + (NumberFormat.decimal(seconds, fractionDigits: 1) ?? "0") + " s"
    }
}
