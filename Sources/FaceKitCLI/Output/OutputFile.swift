import FaceKit
import FaceKitArguments

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A runtime failure while writing the output.
struct OutputError: Error, Equatable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The one way FaceKit writes an output file: tables, summaries, pictures, report pages.
///
/// For a regular file (``OutputTarget/file(path:)``) the bytes go to a hidden temporary file next
/// to it (``TemporaryFile``), which ``commit()`` flushes, syncs and renames over it, so the path
/// holds either its old content or the complete new output, never a half-written file, and a
/// symbolic link planted there is replaced, never written through; a value dropped without
/// `commit()` deletes its temporary file. A device, a named pipe or an inherited descriptor
/// (``OutputTarget/special(path:)``, ``OutputTarget/inherited(_:)``) is written in place and
/// never replaced. Either way a failed write (`ENOSPC` on `/dev/full`, `EIO`) makes `commit()`
/// throw an error naming `path`.
///
/// ```swift
/// let output = try OutputFile(path: "people.csv")
/// output.write("person,faces\n")
/// try output.commit()
/// ```
final class OutputFile: TextOutput {
    /// The path as named, for messages.
    let path: String
    /// The hidden temporary file renamed over the target; `nil` for a stream.
    private let temporary: TemporaryFile?
    private let output: FileDescriptorOutput
    private var finished = false

    convenience init(path: String, specialFiles: OutputTarget.SpecialFiles = .writtenInPlace) throws(OutputError) {
        try self.init(path: path, target: OutputTarget(path: path, specialFiles: specialFiles))
    }

    /// Writes `target`, which `path` named.
    init(path: String, target: OutputTarget) throws(OutputError) {
        self.path = path
        let descriptor: Int32
        switch target {
        case .file(let file):
            let created = try TemporaryFile(for: file)
            descriptor = created.descriptor
            temporary = created
        case .inherited(let inherited):
            descriptor = fcntl(inherited, F_DUPFD_CLOEXEC, 0)
            temporary = nil
        case .special(let special):
            descriptor = FilePathEncoding.withFileSystemRepresentation(special) {
                open($0, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            }
            temporary = nil
        }
        guard descriptor >= 0 else { throw OutputError("\(path): cannot write output: \(systemErrorMessage(errno))") }
        output = FileDescriptorOutput(descriptor: descriptor, buffered: true)
    }

    func write(_ text: String) { output.write(text) }
    func write(bytes: ArraySlice<UInt8>) { output.write(bytes: bytes) }
    func flush() { output.flush() }

    /// Flushes and syncs what was written, then renames the temporary file into place.
    func commit() throws(OutputError) {
        guard !finished else { return }
        finished = true
        output.flush()
        var code = output.errorNumber
        var info = stat()
        // A device or a pipe has nothing to sync (fsync fails with EINVAL on them).
        if code == 0, fstat(output.descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
            fsync(output.descriptor) != 0
        {
            code = errno
        }
        if close(output.descriptor) != 0, code == 0 { code = errno }
        if let temporary {
            try temporary.moveIntoPlace(error: code)
        } else if code != 0 {
            throw OutputError("\(path): cannot write output: \(systemErrorMessage(code))")
        }
    }

    /// Deletes the temporary file and leaves `path` as it was; a stream keeps what it was given.
    func discard() {
        guard !finished else { return }
        finished = true
        // Flushed before the close: text left in the buffer must not reach a reused descriptor.
        output.flush()
        close(output.descriptor)
        temporary?.remove()
    }

    deinit { discard() }
}
