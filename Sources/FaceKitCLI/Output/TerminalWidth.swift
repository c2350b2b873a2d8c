import Foundation

/// How many columns a terminal shows, and how to fit a line into them, so that a line redrawn
/// in place (``StatusLine``) never wraps: a wrapped line cannot be erased and stays on screen.
///
/// Widths are counted conservatively: a character outside ASCII counts as two columns, the most
/// a terminal gives one, so a line measured here never takes more room than it was given.
///
/// ```swift
/// TerminalWidth.columns(descriptor: 2, environment: ["COLUMNS": "100"])   // 100
/// TerminalWidth.prefix("clip.mp4: frame 120", fitting: 8)                  // "clip.mp4"
/// TerminalWidth.suffix("/videos/clip.mp4", fitting: 11)                    // ".../clip.mp4"
/// ```
enum TerminalWidth {
    /// Assumed when neither `COLUMNS` nor the terminal says.
    static let fallback = 80

    /// `COLUMNS` when it is a positive whole number, else the width of the terminal open on
    /// `descriptor` (`ioctl(TIOCGWINSZ)`), else 80.
    static func columns(
        descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Int {
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        var size = winsize()
        let status = withUnsafeMutablePointer(to: &size) { ioctl(descriptor, UInt(TIOCGWINSZ), $0) }
        return status == 0 && size.ws_col > 0 ? Int(size.ws_col) : fallback
    }

    /// The columns `text` takes at most.
    static func columns(of text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + columns(of: $1) }
    }

    static func columns(of character: Character) -> Int { character.isASCII ? 1 : 2 }

    /// The longest start of `text` that fits in `columns`.
    static func prefix(_ text: String, fitting columns: Int) -> String {
        var used = 0
        return String(
            text.prefix { character in
                used += Self.columns(of: character)
                return used <= columns
            })
    }

    /// `text` if it fits in `columns`, else `...` and the longest end of it that fits: for a path,
    /// whose end (the file name) says most.
    static func suffix(_ text: String, fitting columns: Int) -> String {
        guard Self.columns(of: text) > columns else { return text }
        var used = 3
        let end = text.reversed().prefix { character in
            used += Self.columns(of: character)
            return used <= columns
        }
        return "..." + String(end.reversed())
    }
}
