/// The few EXIF fields FaceKit reads from a photo: its orientation (to turn a JPEG's stored size
/// upright) and when it was taken, read from the TIFF structure an EXIF block holds (CIPA
/// DC-008, "Exif 2.32").
///
/// ```swift
/// let fields = ExifFields(tiff: app1[6...])   // the bytes after "Exif\0\0"
/// fields.captureTime                          // "2012-12-06T15:46:01-08:00"
/// ```
struct ExifFields: Equatable {
    /// Orientation (tag 0x0112 of the first IFD), 1-8; `nil` when absent or out of range.
    var orientation: Int?
    /// DateTimeOriginal (0x9003) in ISO 8601, `YYYY-MM-DDTHH:MM:SS`, with SubSecTimeOriginal
    /// (0x9291) as a fraction and OffsetTimeOriginal (0x9011) as the offset from UTC when they
    /// are there; `nil` when the date is absent or is no date (`0000:00:00 00:00:00`, blanks).
    var captureTime: String?

    init(orientation: Int? = nil, captureTime: String? = nil) {
        self.orientation = orientation
        self.captureTime = captureTime
    }

    /// The fields of the TIFF structure `tiff` (starting at its `II` or `MM`); whatever cannot be
    /// read (a damaged block, an offset past its end) is left `nil`.
    init<Bytes: RandomAccessCollection<UInt8>>(tiff bytes: Bytes) where Bytes.Index == Int {
        let tiff = Array(bytes)
        guard tiff.count >= 8, tiff[0] == tiff[1], tiff[0] == UInt8(ascii: "I") || tiff[0] == UInt8(ascii: "M")
        else {
            self.init()
            return
        }
        let reader = Reader(bytes: tiff, littleEndian: tiff[0] == UInt8(ascii: "I"))
        let first = reader.entries(at: reader.u32(4))
        var orientation: Int?
        if let value = first[0x0112].flatMap(reader.short), (1...8).contains(value) { orientation = value }
        var captureTime: String?
        if let exifOffset = first[0x8769].flatMap(reader.long) {
            let exif = reader.entries(at: exifOffset)
            captureTime = exif[0x9003].flatMap(reader.ascii).flatMap { date in
                Self.isoTime(
                    date: date, subseconds: exif[0x9291].flatMap(reader.ascii),
                    offset: exif[0x9011].flatMap(reader.ascii))
            }
        }
        self.init(orientation: orientation, captureTime: captureTime)
    }

    /// `YYYY:MM:DD HH:MM:SS` as ISO 8601, with digits of `subseconds` as a fraction and a
    /// `+HH:MM` or `-HH:MM` `offset`; `nil` when `date` is not a date.
    static func isoTime(date: String, subseconds: String?, offset: String?) -> String? {
        let scalars = Array(date.unicodeScalars.prefix(19))
        guard scalars.count == 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            let digits = scalars[range]
            guard digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
            return Int(String(String.UnicodeScalarView(digits)))
        }
        let separators: [(Int, Unicode.Scalar)] = [(4, ":"), (7, ":"), (10, " "), (13, ":"), (16, ":")]
        guard separators.allSatisfy({ scalars[$0.0] == $0.1 }), let year = number(0..<4), let month = number(5..<7),
            let day = number(8..<10), let hour = number(11..<13), let minute = number(14..<16),
            let second = number(17..<19), year >= 1, (1...12).contains(month), (1...31).contains(day),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var text = String(String.UnicodeScalarView(scalars[0..<19]))
        text = text.replacingFirst(4, with: "-").replacingFirst(7, with: "-").replacingFirst(10, with: "T")
        if let subseconds = subseconds?.trimmingSpaces, !subseconds.isEmpty,
            subseconds.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) })
        {
            text += "." + subseconds
        }
        if let offset = offset?.trimmingSpaces, Self.isOffset(offset) { text += offset }
        return text
    }

    /// Whether `text` is an offset from UTC as EXIF writes one: `+HH:MM` or `-HH:MM`.
    static func isOffset(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 6, scalars[0] == "+" || scalars[0] == "-", scalars[3] == ":" else { return false }
        let digits = [scalars[1], scalars[2], scalars[4], scalars[5]]
        guard digits.allSatisfy({ ("0"..."9").contains($0) }) else { return false }
        let hours = Int(String(String.UnicodeScalarView([scalars[1], scalars[2]])))!
        let minutes = Int(String(String.UnicodeScalarView([scalars[4], scalars[5]])))!
        return hours <= 14 && minutes <= 59
    }

    /// One IFD entry: its type, count, and where its value lies (inline, or at an offset).
    struct Entry {
        var type: Int
        var count: Int
        var valueAt: Int
    }

    /// Reads numbers and entries out of a TIFF structure, never past its end.
    struct Reader {
        let bytes: [UInt8]
        let littleEndian: Bool

        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= bytes.count else { return nil }
            let (a, b) = (Int(bytes[at]), Int(bytes[at + 1]))
            return littleEndian ? a | b << 8 : a << 8 | b
        }

        func u32(_ at: Int) -> Int? {
            guard let low = u16(littleEndian ? at : at + 2), let high = u16(littleEndian ? at + 2 : at) else { return nil }
            return low | high << 16
        }

        /// The entries of the IFD at `offset`, by tag (the first of a repeated tag).
        func entries(at offset: Int?) -> [Int: Entry] {
            guard let offset, let count = u16(offset) else { return [:] }
            var result: [Int: Entry] = [:]
            for index in 0..<count {
                let at = offset + 2 + 12 * index
                guard let tag = u16(at), let type = u16(at + 2), let number = u32(at + 4) else { break }
                let size = [1: 1, 2: 1, 3: 2, 4: 4, 7: 1][type] ?? 0
                guard size > 0, number <= 1 << 16 else { continue }
                let valueAt = size * number <= 4 ? at + 8 : (u32(at + 8) ?? -1)
                guard valueAt >= 0, valueAt + size * number <= bytes.count else { continue }
                if result[tag] == nil { result[tag] = Entry(type: type, count: number, valueAt: valueAt) }
            }
            return result
        }

        /// A SHORT entry's first value.
        func short(_ entry: Entry) -> Int? { entry.type == 3 && entry.count >= 1 ? u16(entry.valueAt) : nil }

        /// A LONG entry's first value.
        func long(_ entry: Entry) -> Int? { entry.type == 4 && entry.count >= 1 ? u32(entry.valueAt) : nil }

        /// An ASCII entry's text, up to its first NUL; `nil` unless it is ASCII.
        func ascii(_ entry: Entry) -> String? {
            guard entry.type == 2 || entry.type == 7 else { return nil }
            let text = bytes[entry.valueAt..<entry.valueAt + entry.count].prefix { $0 != 0 }
            guard text.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            return String(decoding: text, as: UTF8.self)
        }
    }
}

extension String {
    /// The string with the character at `offset` (an ASCII position) replaced by `replacement`.
    fileprivate func replacingFirst(_ offset: Int, with replacement: Character) -> String {
        var characters = Array(self)
        characters[offset] = replacement
        return String(characters)
    }

    /// The string without spaces at either end.
    fileprivate var trimmingSpaces: String {
        String(String.UnicodeScalarView(unicodeScalars.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()))
    }
}
