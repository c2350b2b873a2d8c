/// The name a user most likely meant when they typed one that does not exist, for the
/// "Did you mean" of a usage error.
///
/// A name is close when the typed word is at most two edits away from it and the edits are no
/// more than half the word (so `--ab` is not taken for `--cd`), an edit being a character
/// inserted, deleted, replaced, or two neighbours swapped; the closest wins, the earlier on a tie.
/// Failing that, a word that starts exactly one name (`--min-face` for `--min-face-size`)
/// suggests that name; and failing that, a word whose dash-separated parts are, in order, whole
/// parts of exactly one name (`--min-size` for `--min-face-size`, `completion` for
/// `--generate-completion-script`): a word left out is a slip that edits do not measure.
///
/// ```swift
/// NameSuggestion.closest(to: "landmark", among: ["mode", "landmarks", "classify"])   // "landmarks"
/// NameSuggestion.closest(to: "analyse", among: ["analyze", "track", "annotate"])     // "analyze"
/// NameSuggestion.closest(to: "min-size", among: ["min-face-size", "min-detection-score"])   // "min-face-size"
/// NameSuggestion.closest(to: "bogus", among: ["mode", "landmarks"])                  // nil
/// ```
enum NameSuggestion {
    static let maximumEdits = 2

    static func closest(to typed: String, among names: [String]) -> String? {
        let word = Array(typed)
        guard !word.isEmpty else { return nil }
        let near = names.map { (name: $0, edits: editDistance(word, Array($0))) }
            .filter { $0.edits <= maximumEdits && 2 * $0.edits <= word.count }
        if let best = near.min(by: { $0.edits < $1.edits }) { return best.name }
        let extended = names.filter { $0.hasPrefix(typed) }
        if extended.count == 1 { return extended[0] }
        let parts = typed.split(separator: "-")
        let containing = names.filter { isSubsequence(parts, of: $0.split(separator: "-")) }
        return containing.count == 1 ? containing[0] : nil
    }

    /// Whether every part of `parts` is found in `whole`, in the same order.
    private static func isSubsequence(_ parts: [Substring], of whole: [Substring]) -> Bool {
        guard !parts.isEmpty else { return false }
        var rest = whole[...]
        for part in parts {
            guard let found = rest.firstIndex(of: part) else { return false }
            rest = rest[(found + 1)...]
        }
        return true
    }

    /// Edits that turn `a` into `b`: insertions, deletions, replacements and swaps of two
    /// neighbouring characters (the optimal string alignment distance).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        // distance[i][j]: edits from the first i characters of a to the first j of b.
        var distance = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { distance[i][0] = i }
        for j in 0...b.count { distance[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let replace = a[i - 1] == b[j - 1] ? 0 : 1
                distance[i][j] = min(
                    distance[i - 1][j] + 1, distance[i][j - 1] + 1, distance[i - 1][j - 1] + replace)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    distance[i][j] = min(distance[i][j], distance[i - 2][j - 2] + 1)
                }
            }
        }
        return distance[a.count][b.count]
    }
}

extension CommandError {
    /// `Unknown option '--landmark'. Did you mean '--landmarks'?`, or without the question when
    /// no option is close. `word` is what was typed (`--landmark`, `-landmarks`); `longNames`
    /// are the command's options without their dashes.
    static func unknownOption(_ word: String, among longNames: [String]) -> CommandError {
        let typed = String(word.drop { $0 == "-" })
        return CommandError(
            "Unknown option '\(word)'"
                + (NameSuggestion.closest(to: typed, among: longNames).map { ". Did you mean '--\($0)'?" } ?? ""))
    }

    /// `Unknown subcommand 'analyse'. Did you mean 'analyze'?`, or without the question when no
    /// subcommand is close. A word that names one of the `builtIns` instead (`completion`,
    /// `version`: what other tools make subcommands) suggests that option, with `value` when it
    /// is one the option takes: `Did you mean 'facekit --generate-completion-script bash'?`.
    static func unknownSubcommand(
        _ word: String, among names: [String], builtIns: [BuiltInOption] = [], command: String = "",
        value: String? = nil
    ) -> CommandError {
        var message = "Unknown subcommand '\(word)'"
        if let name = NameSuggestion.closest(to: word, among: names) {
            message += ". Did you mean '\(name)'?"
        } else if let name = NameSuggestion.closest(to: word, among: builtIns.map(\.name)),
            let option = builtIns.first(where: { $0.name == name })
        {
            var suggestion = "--" + option.name
            if let valueName = option.valueName {
                suggestion += " " + (value.flatMap { option.allowedValues.contains($0) ? $0 : nil } ?? "<\(valueName)>")
            }
            message += ". Did you mean '\(command.isEmpty ? "" : command + " ")\(suggestion)'?"
        }
        return CommandError(message)
    }
}
