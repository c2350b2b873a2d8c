/// A 64-bit FNV-1a digest of a sequence of paths, in order: two runs that went through the same
/// files in the same order have the same digest.
///
/// ```swift
/// var digest = PathsDigest()
/// digest.add("photos/a.jpg")   // digest.description == 16 hex digits
/// ```
struct PathsDigest: Equatable, Sendable, Codable, CustomStringConvertible {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    init() {}

    mutating func add(_ path: String) {
        for byte in path.utf8 { mix(byte) }
        mix(0)
    }

    private mutating func mix(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    var description: String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard text.count == 16, let value = UInt64(text, radix: 16) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a digest"))
        }
        self.value = value
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
