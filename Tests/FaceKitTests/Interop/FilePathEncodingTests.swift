import Testing

@testable import FaceKit

@Suite("FilePathEncoding")
struct FilePathEncodingTests {
    /// A small seeded generator, so that the "random" paths are the same on every run.
    struct SeededBytes {
        var state: UInt64
        mutating func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    static let latin1Cafe: [UInt8] = Array("café".utf8.dropLast(2)) + [0xE9] + Array(".jpg".utf8)

    @Test(
        "a UTF-8 path is held as itself and written as itself",
        arguments: ["photos/a.jpg", "é/ü ß.png", "日本/写真.JPG", "a\\b.jpg", ""])
    func utf8Unchanged(path: String) {
        #expect(FilePathEncoding.string(fromPathBytes: Array(path.utf8)) == path)
        #expect(FilePathEncoding.pathBytes(path) == Array(path.utf8))
        #expect(FilePathEncoding.text(path) == path)
    }

    @Test("a Latin-1 é is held as U+10FFE9 and written as \\xE9")
    func latin1() {
        let path = FilePathEncoding.string(fromPathBytes: Self.latin1Cafe)
        #expect(path == "caf\u{10FFE9}.jpg")
        #expect(FilePathEncoding.pathBytes(path) == Self.latin1Cafe)
        #expect(FilePathEncoding.text(path) == #"caf\xE9.jpg"#)
        #expect(FilePathEncoding.pathBytes(fromText: #"caf\xE9.jpg"#) == Self.latin1Cafe)
    }

    @Test(
        "a backslash followed by x is escaped, so that no name reads as an escape",
        arguments: [#"a\xE9.jpg"#, #"\x"#, #"a\\x"#])
    func backslashX(name: String) {
        let text = FilePathEncoding.text(name)
        #expect(text != name)
        #expect(FilePathEncoding.pathBytes(fromText: text) == Array(name.utf8))
    }

    @Test("a name holding one of the code points that stand for bytes keeps its own bytes")
    func reservedCodePoints() {
        let name = "x\u{10FFE9}\u{10FF80}.jpg"
        let bytes = Array(name.utf8)
        let path = FilePathEncoding.string(fromPathBytes: bytes)
        #expect(FilePathEncoding.pathBytes(path) == bytes)
        #expect(FilePathEncoding.text(path) == #"x\xF4\x8F\xBF\xA9\xF4\x8F\xBE\x80.jpg"#)
        #expect(FilePathEncoding.pathBytes(fromText: FilePathEncoding.text(path)) == bytes)
    }

    @Test(
        "invalid sequences are held byte by byte: overlong forms, surrogates, cut sequences, stray continuations",
        arguments: [
            [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0x80, 0x41], [0xF4, 0x90, 0x80, 0x80], [0xFF, 0xFE],
        ] as [[UInt8]])
    func invalidSequences(bytes: [UInt8]) {
        let path = FilePathEncoding.string(fromPathBytes: bytes)
        #expect(FilePathEncoding.pathBytes(path) == bytes)
        #expect(path.unicodeScalars.filter { $0.value >= 0x10FF80 }.count == bytes.filter { $0 >= 0x80 }.count)
    }

    @Test(
        "for messages, control characters are written as the \\xHH of their bytes, reversibly",
        arguments: [
            ("a\nfacekit: b.jpg", #"a\x0Afacekit: b.jpg"#), ("\u{1B}[31mred.png", #"\x1B[31mred.png"#),
            ("tab\there\r.jpg", #"tab\x09here\x0D.jpg"#), ("del\u{7F}.jpg", #"del\x7F.jpg"#),
            ("csi\u{9B}2J.jpg", #"csi\xC2\x9B2J.jpg"#), ("é ok.jpg", "é ok.jpg"),
        ])
    func controlCharacters(path: String, expected: String) {
        #expect(FilePathEncoding.text(path, escapingControlCharacters: true) == expected)
        #expect(FilePathEncoding.pathBytes(fromText: expected) == Array(path.utf8))
        #expect(FilePathEncoding.text(path) == path, "CSV and JSON have their own escapes for these")
    }

    @Test("any bytes survive the round trip through a string and through text", arguments: 0..<20)
    func randomRoundTrips(seed: UInt64) {
        var generator = SeededBytes(state: seed)
        for length in [1, 2, 3, 5, 8, 40] {
            // Bytes 1...255 (a path holds no NUL), weighted toward the interesting high half.
            let bytes = (0..<length).map { _ in max(1, generator.next() | (generator.next() & 0x80)) }
            let path = FilePathEncoding.string(fromPathBytes: bytes)
            #expect(FilePathEncoding.pathBytes(path) == bytes, "\(bytes)")
            #expect(FilePathEncoding.pathBytes(fromText: FilePathEncoding.text(path)) == bytes, "\(bytes)")
            let message = FilePathEncoding.text(path, escapingControlCharacters: true)
            #expect(FilePathEncoding.pathBytes(fromText: message) == bytes, "\(bytes)")
            #expect(!message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
            let cString = FilePathEncoding.withFileSystemRepresentation(path) { pointer in
                (0..<length + 1).map { UInt8(bitPattern: pointer[$0]) }
            }
            #expect(cString == bytes + [0])
        }
    }
}
