import Foundation

/// Per-frame eyes-closed labels of the FOCUS blink videos (`*_ideal.csv`: one 0/1 a line,
/// 1 = closed, sometimes after a UTF-8 byte-order mark). The labels lead their video by one
/// frame: line i-1 describes frame i. ``closedByFrame(_:)`` applies that shift.
public enum BlinkLabels {
    /// Eyes-closed flags indexed by video frame; frame 0 has no label and is `nil`.
    public static func closedByFrame(_ path: String) throws -> [Bool?] {
        var text = try String(contentsOfFile: path, encoding: .utf8)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        return [nil] + lines.map { $0 == "1" }
    }
}
