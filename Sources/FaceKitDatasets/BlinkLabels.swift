import Foundation

/// Per-frame eyes-closed labels of the FOCUS blink videos (`*_ideal.csv`: one 0/1 a line,
/// 1 = closed, sometimes after a UTF-8 byte-order mark). The labels lead their video: line
/// i - lead describes frame i. ``closedByFrame(_:)`` applies each clip's lead.
public enum BlinkLabels {
    /// How many frames each clip's labels lead its video: the shift under which the clip's mean eye
    /// aspect ratio, a measure no model learns, ranks open against closed best (docs/accuracy.md,
    /// "FOCUS label alignment"): one frame for mahie's clips, as the data's README says, two for
    /// soniya's (0.818 against 0.807 for one frame).
    public static let leads = ["mahie_test_1": 1, "mahie_test_2": 1, "mahie_test_3": 1, "soniya_test_3": 2]

    /// The lead of the clip whose labels are at `path` (`<clip>_ideal.csv`); one frame for a clip
    /// not measured.
    public static func lead(ofLabels path: String) -> Int {
        let name = URL(fileURLWithPath: path).lastPathComponent
        return leads[String(name.dropLast("_ideal.csv".count))] ?? 1
    }

    /// Eyes-closed flags indexed by video frame; the first frames, which no line describes, are `nil`.
    public static func closedByFrame(_ path: String) throws -> [Bool?] {
        var text = try String(contentsOfFile: path, encoding: .utf8)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        return Array(repeating: nil, count: lead(ofLabels: path)) + lines.map { $0 == "1" }
    }
}
