/// How FaceKit holds a file path in a Swift `String` without losing bytes, and how it writes one
/// as text.
///
/// On Linux a path is any bytes but NUL; it need not be UTF-8 (a Latin-1 `é` is the single byte
/// E9). A `String` holds Unicode only, so FaceKit keeps paths as strings in which the bytes that
/// form valid UTF-8 are their characters, as usual, and each byte that is not part of valid UTF-8
/// is the code point U+10FF00 + byte (U+10FF80 ... U+10FFFF, the end of Unicode's last private
/// use plane, which no real name uses). A name that does contain one of those code points has
/// its four bytes held the same way, byte by byte, so every path survives the round trip. This
/// is Python's PEP 383 ("surrogateescape"), which uses lone surrogates where a Swift `String`
/// cannot. ``FaceImage``, ``VideoReader`` and ``VideoWriter`` give the shim the path's bytes.
///
/// As text (the `source` column of CSV and JSON Lines, and messages), a path is written
/// reversibly as ``text(_:escapingControlCharacters:)`` says: valid UTF-8 as is, each other
/// byte as `\xHH`, and a backslash that is followed by `x` as `\x5C`, so that every `\x` in the
/// text starts an escape; in messages, control characters too.
///
/// ```swift
/// let path = FilePathEncoding.string(fromPathBytes: Array("caf".utf8) + [0xE9] + Array(".jpg".utf8))
/// FilePathEncoding.pathBytes(path).count   // 8: the original bytes
/// FilePathEncoding.text(path)              // "caf\xE9.jpg"
/// ```
package enum FilePathEncoding {
    /// The code points that stand for single bytes: U+10FF00 + byte, for the bytes 0x80 ... 0xFF
    /// (bytes below 0x80 are always valid UTF-8 on their own).
    static let byteScalars: ClosedRange<UInt32> = 0x10FF80...0x10FFFF

    /// The path whose bytes are `bytes` (without a terminating NUL), as a string.
    package static func string<Bytes: Collection<UInt8>>(fromPathBytes bytes: Bytes) -> String {
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let length = validSequenceLength(bytes, at: index)
            if length == 0 {
                scalars.append(byteScalar(bytes[index]))
                index += 1
                continue
            }
            let sequence = bytes[index..<(index + length)]
            let scalar = String(decoding: sequence, as: UTF8.self).unicodeScalars.first!
            if byteScalars.contains(scalar.value) {
                for byte in sequence { scalars.append(byteScalar(byte)) }
            } else {
                scalars.append(scalar)
            }
            index += length
        }
        return String(scalars)
    }

    /// The bytes of the path `path` stands for: the inverse of ``string(fromPathBytes:)``.
    package static func pathBytes(_ path: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if byteScalars.contains(scalar.value) {
                bytes.append(UInt8(scalar.value - 0x10FF00))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Calls `body` with the path's bytes as a NUL-terminated C string, for a system or shim call.
    package static func withFileSystemRepresentation<Result>(
        _ path: String, _ body: (UnsafePointer<CChar>) throws -> Result
    ) rethrows -> Result {
        var bytes = pathBytes(path)
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// The path written as text, reversibly: valid UTF-8 as is; each byte that is not part of
    /// valid UTF-8 as `\xHH` (two upper-case hex digits); a backslash followed by `x` as `\x5C`.
    /// With `escapingControlCharacters`, control characters too (C0, DEL and C1, which a terminal
    /// would act on), as the `\xHH` of each of their UTF-8 bytes. ``pathBytes(fromText:)`` gives
    /// the bytes back.
    ///
    /// ```swift
    /// FilePathEncoding.text("a\\xb.jpg")                                    // "a\x5Cxb.jpg"
    /// FilePathEncoding.text("a\nb.jpg", escapingControlCharacters: true)   // "a\x0Ab.jpg"
    /// ```
    package static func text(_ path: String, escapingControlCharacters: Bool = false) -> String {
        var result = String.UnicodeScalarView()
        func escape(_ byte: UInt8) {
            let hex = String(byte, radix: 16, uppercase: true)
            result.append(contentsOf: ("\\x" + (hex.count == 1 ? "0" : "") + hex).unicodeScalars)
        }
        let scalars = Array(path.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            let value = scalar.value
            if byteScalars.contains(value) {
                escape(UInt8(value - 0x10FF00))
            } else if scalar == "\\", index + 1 < scalars.count, scalars[index + 1] == "x" {
                escape(0x5C)
            } else if escapingControlCharacters && (value < 0x20 || (0x7F...0x9F).contains(value)) {
                for byte in String(scalar).utf8 { escape(byte) }
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// The path bytes that `text` (written by ``text(_:escapingControlCharacters:)``) stands
    /// for: every `\xHH` is the byte HH, everything else its UTF-8.
    package static func pathBytes(fromText text: String) -> [UInt8] {
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "\\"), index + 3 < utf8.count, utf8[index + 1] == UInt8(ascii: "x"),
                let high = hexValue(utf8[index + 2]), let low = hexValue(utf8[index + 3])
            {
                bytes.append(high << 4 | low)
                index += 4
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return bytes
    }

    private static func byteScalar(_ byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(0x10FF00 + UInt32(byte))!
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// The length of the well-formed UTF-8 sequence starting at `index` (Unicode's table 3-7:
    /// no overlong forms, no surrogates, nothing above U+10FFFF), or 0 when there is none.
    private static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; second = 0x80...0x8F
        default: return 0
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return 0 }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return 0 }
        return length
    }
}
