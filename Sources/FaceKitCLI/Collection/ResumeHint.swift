import FaceKitArguments

/// The line an interrupted collection run (`analyze --output`, `track --output`) ends with, so
/// that Ctrl-C does not leave the user guessing: the command that continues it, in words a
/// shell takes as they are, starting with the program as it was run (`.build/release/facekit`
/// runs again as that).
///
/// ```swift
/// ResumeHint.line(arguments: ["analyze", "--output", "faces.csv", "my photos/"], program: "facekit")
/// // "facekit: interrupted; to continue where it stopped, run: facekit analyze --resume --output faces.csv 'my photos/'"
/// ```
///
/// `--summary` is left out of the command, since `--resume` refuses it (the tracks of the
/// videos done before are not kept), and the line says so.
enum ResumeHint {
    static func line(arguments: [String], program: String) -> String {
        var words: [String] = []
        var droppedSummary = false
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            index += 1
            if word == "--summary" {
                droppedSummary = true
                index += 1
                continue
            }
            if word.hasPrefix("--summary=") {
                droppedSummary = true
                continue
            }
            words.append(word)
        }
        if !words.contains("--resume") { words.insert("--resume", at: min(1, words.count)) }
        let command = ([program] + words).map(shellWord).joined(separator: " ")
        return "facekit: interrupted; to continue where it stopped, run: \(command)"
            + (droppedSummary ? "   (without --summary, which --resume cannot continue)" : "")
    }

    /// The line a run that cannot be continued ends with when interrupted: one written to
    /// standard output (`> faces.csv`) or, `toStandardOutput` false, to a device or named pipe.
    static func unresumableLine(toStandardOutput: Bool) -> String {
        "facekit: interrupted; the rows not yet written to " + (toStandardOutput ? "standard output" : "the output")
            + " are lost, and its last row may be cut short; a run written with --output <file> "
            + "can be continued where it stopped, with --resume"
    }

    /// `word` as a shell reads it back: as it is when it has only characters no shell treats
    /// specially, else in single quotes (a quote inside written `'\''`).
    static func shellWord(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_./=:,+@%".unicodeScalars.contains(scalar))
        }
        if plain { return MessageText.escaped(word) }
        return "'" + MessageText.escaped(word).replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
