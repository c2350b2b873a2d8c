#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Somewhere text is written: standard output, standard error, a file, or a string in tests.
public protocol TextOutput: AnyObject {
    func write(_ text: String)
    /// Writes bytes that are already text (UTF-8, or file names as FilePathEncoding writes
    /// them), as they are: `facekit merge` copies whole tables this way.
    func write(bytes: ArraySlice<UInt8>)
    /// Pushes buffered text to its destination.
    func flush()
}

extension TextOutput {
    /// Outputs that hold a `String` decode the bytes; a file writes them as they are.
    public func write(bytes: ArraySlice<UInt8>) { write(String(decoding: bytes, as: UTF8.self)) }
}

/// Collects everything written, for running commands in process in tests.
public final class StringOutput: TextOutput {
    public private(set) var text = ""
    public init() {}
    public func write(_ text: String) { self.text += text }
    public func flush() {}
}

/// Writes UTF-8 to a file descriptor, optionally through a 64 KiB buffer.
///
/// A failed write is remembered in ``errorNumber`` (the first `errno`) and later text is
/// dropped; the owner checks it when done. The descriptor is not closed by this type.
public final class FileDescriptorOutput: TextOutput {
    public let descriptor: Int32
    private let buffered: Bool
    private var buffer: [UInt8] = []
    /// The `errno` of the first failed write, 0 while all writes succeeded.
    public private(set) var errorNumber: Int32 = 0

    public init(descriptor: Int32, buffered: Bool) {
        self.descriptor = descriptor
        self.buffered = buffered
        buffer.reserveCapacity(buffered ? 1 << 16 : 256)
    }

    /// Buffered standard output.
    public static func standardOutput() -> FileDescriptorOutput { FileDescriptorOutput(descriptor: 1, buffered: true) }
    /// Unbuffered standard error, so messages appear as they happen.
    public static func standardError() -> FileDescriptorOutput { FileDescriptorOutput(descriptor: 2, buffered: false) }

    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if !buffered || buffer.count >= 1 << 16 { flush() }
    }

    public func write(bytes: ArraySlice<UInt8>) {
        buffer.append(contentsOf: bytes)
        if !buffered || buffer.count >= 1 << 16 { flush() }
    }

    public func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard errorNumber == 0 else { return }
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { bytes in
                #if canImport(Glibc)
                    Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                #else
                    Darwin.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                errorNumber = errno
                return
            }
            offset += written
        }
    }

    deinit { flush() }
}

extension TextOutput {
    /// Whether a person is watching: progress is drawn only on a terminal.
    public var isTerminal: Bool {
        guard let descriptorOutput = self as? FileDescriptorOutput else { return false }
        return isatty(descriptorOutput.descriptor) == 1
    }
}
