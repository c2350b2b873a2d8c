import FaceKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a text file line by line through a file descriptor (so that a path that is not UTF-8
/// opens as given), a megabyte at a time, without holding the whole file; only a regular file
/// (``RegularFile``). A line longer than ``maximumLineLength`` is not kept: its bytes are passed
/// over to the next line break, so one absurd line cannot take the memory of the machine.
enum LineFileReader {
    /// The longest line kept, in bytes: a face's JSON line with its 133 contour points and
    /// descriptor is about 10 KB.
    static let maximumLineLength = 1 << 20

    /// Hands `body` each line's bytes (without its LF; a last line without LF too), or `nil` for a
    /// line longer than ``maximumLineLength``, and its 1-based number. Throws the system's message
    /// when the file cannot be opened or read, or why it is not a regular file.
    static func forEachLine(
        of path: String, _ body: (ArraySlice<UInt8>?, Int) throws(FailedInput) -> Void
    ) throws(FailedInput) {
        let descriptor: Int32
        switch RegularFile.open(path, O_RDONLY) {
        case .success(let opened): descriptor = opened
        case .failure(let refusal):
            // A JSON Lines file not there yet is most often one not written yet: say how.
            let fix =
                refusal.code == ENOENT
                ? "; write it first with facekit analyze --descriptors --format jsonl --output \(path) photos/" : ""
            throw FailedInput(description: "\(path): cannot read file: \(refusal.reason)" + fix)
        }
        defer { _ = close(descriptor) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var pending: [UInt8] = []
        var tooLong = false
        var number = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FailedInput(description: "\(path): cannot read file: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            var start = 0
            for index in 0..<count where chunk[index] == UInt8(ascii: "\n") {
                number += 1
                if tooLong || pending.count + (index - start) > maximumLineLength {
                    try body(nil, number)
                } else if pending.isEmpty {
                    try body(chunk[start..<index], number)
                } else {
                    pending += chunk[start..<index]
                    try body(pending[...], number)
                }
                pending.removeAll(keepingCapacity: true)
                tooLong = false
                start = index + 1
            }
            if !tooLong { pending += chunk[start..<count] }
            if pending.count > maximumLineLength {
                tooLong = true
                pending = []
            }
        }
        if tooLong {
            try body(nil, number + 1)
        } else if !pending.isEmpty {
            try body(pending[...], number + 1)
        }
    }
}
