import FaceKit

/// The text of what FaceKit prints about files (messages on standard error, the files `annotate`
/// lists, progress lines), with the file names in it written as docs/cli.md says: bytes that are
/// not UTF-8 as `\xHH`, reversibly (``FilePathEncoding/text(_:)``).
///
/// ```swift
/// MessageText.escaped(FilePathEncoding.string(fromPathBytes: [0x63, 0xE9]) + ": cannot read file")   // "c\xE9: cannot read file"
/// ```
enum MessageText {
    static func escaped(_ text: String) -> String { FilePathEncoding.text(text) }
}

extension TextOutput {
    /// Writes the runtime failure `message` as one line, `facekit: <message>`.
    func writeDiagnostic(_ message: String) {
        write("facekit: " + MessageText.escaped(message) + "\n")
    }
}
