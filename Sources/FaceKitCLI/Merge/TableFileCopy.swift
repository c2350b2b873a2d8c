import FaceKit
import FaceKitArguments

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a shard's table as bytes, for `facekit merge`: its first line (a CSV header), and the
/// whole file, or all of it after the first line, copied to an output in 1 MiB pieces.
///
/// ```swift
/// let header = try TableFileCopy.firstLine(of: "faces-1.csv")          // "source,frame,...\n" as bytes
/// try TableFileCopy.copy("faces-2.csv", to: output, skippingFirstLine: true)
/// ```
enum TableFileCopy {
    /// The bytes up to and including the first LF (all of a file without one).
    static func firstLine(of path: String) throws(OutputError) -> [UInt8] {
        var line: [UInt8] = []
        try read(path) { chunk in
            if let end = chunk.firstIndex(of: UInt8(ascii: "\n")) {
                line += chunk[...end]
                return false
            }
            line += chunk
            return true
        }
        return line
    }

    /// Copies `path` to `output`, without its first line when `skippingFirstLine`; returns the
    /// size of the file read.
    @discardableResult
    static func copy(_ path: String, to output: any TextOutput, skippingFirstLine: Bool) throws(OutputError) -> UInt64 {
        var skipping = skippingFirstLine
        var size: UInt64 = 0
        try read(path) { chunk in
            size += UInt64(chunk.count)
            var piece = chunk[...]
            if skipping {
                guard let end = piece.firstIndex(of: UInt8(ascii: "\n")) else { return true }
                piece = piece[(end + 1)...]
                skipping = false
            }
            if !piece.isEmpty { output.write(bytes: piece) }
            return true
        }
        return size
    }

    /// Hands `body` the file's bytes in order, one piece at a time, while it returns `true`.
    private static func read(_ path: String, _ body: ([UInt8]) -> Bool) throws(OutputError) {
        let descriptor: Int32
        switch RegularFile.open(path, O_RDONLY) {
        case .success(let opened): descriptor = opened
        case .failure(let refusal): throw OutputError("\(path): cannot read: \(refusal.reason)")
        }
        defer { closeTable(descriptor) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { readTable(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw OutputError("\(path): cannot read: \(systemErrorMessage(errno))")
            }
            if count == 0 || !body(Array(chunk[..<count])) { return }
        }
    }
}

#if canImport(Glibc)
    private func closeTable(_ descriptor: Int32) { _ = Glibc.close(descriptor) }
    private func readTable(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        Glibc.read(descriptor, buffer, count)
    }
#else
    private func closeTable(_ descriptor: Int32) { _ = Darwin.close(descriptor) }
    private func readTable(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        Darwin.read(descriptor, buffer, count)
    }
#endif
