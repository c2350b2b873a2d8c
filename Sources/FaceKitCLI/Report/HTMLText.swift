import FaceKitArguments
import Foundation

/// Text made safe for HTML and SVG: everything from the input (file names, person names, failure
/// messages) goes through here, so that a name such as `<script>.jpg` shows as text.
enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` as character references, control characters (other
    /// than tab and line feed) and bytes of a path that are not UTF-8 shown as escapes, so that
    /// the result is safe both between tags and inside a quoted attribute.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in MessageText.escaped(text).unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A path or file name as ``escaped(_:)`` gives it, with a `<wbr>` (a place to break the
    /// line, if need be) after each `/`, `_` and `-`, so that a long path wraps between its
    /// parts instead of in the middle of a word: `a/b_c` -> `a/<wbr>b_<wbr>c`.
    static func path(_ text: String) -> String {
        var result = ""
        for character in escaped(text) {
            result.append(character)
            if character == "/" || character == "_" || character == "-" { result += "<wbr>" }
        }
        return result
    }

    /// A number with at most `digits` decimals, trailing zeros dropped, for SVG coordinates and
    /// data attributes.
    static func number(_ value: Double, digits: Int = 1) -> String {
        NumberFormat.decimal(value.isFinite ? value : 0, fractionDigits: digits) ?? "0"
    }

    /// `probability` as a whole percentage, `-` when absent (or not a number); held to 0-100 %,
    /// the range of a probability (the tables' readers refuse others: this only keeps the
    /// conversion to a whole number from trapping).
    static func percent(_ probability: Double?) -> String {
        guard let probability, probability.isFinite else { return "-" }
        return "\(Int((min(1, max(0, probability)) * 100).rounded()))%"
    }

    /// A duration in seconds as `m:ss.s`; held to 10^12 ms (the tables' readers refuse larger
    /// times: this only keeps the conversion to whole minutes from trapping).
    static func time(milliseconds: Double) -> String {
        let seconds = (milliseconds.isFinite ? min(1e12, max(0, milliseconds)) : 0) / 1000
        let minutes = Int(seconds / 60)
        let rest = seconds - Double(minutes * 60)
        return String(format: "%d:%04.1f", minutes, rest)
    }
}
