import FaceKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The text of what FaceKit prints about files (messages on standard error, usage errors, the
/// files `annotate` lists, progress lines), with every control character and every byte that is
/// not UTF-8 written as `\xHH`, reversibly (``FilePathEncoding/text(_:escapingControlCharacters:)``).
///
/// A file name may hold any byte but NUL and `/`: a line feed followed by `facekit: ...` would
/// forge a second message, and an escape sequence (ESC, or the C1 CSI) would move the cursor or
/// recolour the terminal. Escaped, every message is one line of plain text.
///
/// ```swift
/// MessageText.escaped("a\nfacekit: b.jpg: cannot read file")   // "a\x0Afacekit: b.jpg: cannot read file"
/// ```
public enum MessageText {
    public static func escaped(_ text: String) -> String { FilePathEncoding.text(text, escapingControlCharacters: true) }
}

/// The text of `strerror(code)`, e.g. "No such file or directory".
public func systemErrorMessage(_ code: Int32) -> String {
    String(cString: strerror(code))
}
