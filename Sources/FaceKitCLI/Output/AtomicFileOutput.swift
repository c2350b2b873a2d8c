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

/// Writes to a hidden temporary file next to `path` and renames it over `path` in
/// ``commit()``, so `path` holds either its old content or the complete new output, never a
/// half-written file. A value dropped without `commit()` deletes its temporary file.
final class AtomicFileOutput: TextOutput {
    let path: String
    /// The temporary file, `.<name>.<random>.tmp` in the same folder.
    let temporaryPath: String
    private let output: FileDescriptorOutput
    private var finished = false

    init(path: String) throws(OutputError) {
        self.path = path
        var isFolder = stat()
        if FilePathEncoding.withFileSystemRepresentation(path, { stat($0, &isFolder) }) == 0,
            (isFolder.st_mode & S_IFMT) == S_IFDIR
        {
            throw OutputError("\(path): cannot write output: it is a folder")
        }
        let (temporary, descriptor) = try TemporaryFile.create(nextTo: path)
        temporaryPath = temporary
        output = FileDescriptorOutput(descriptor: descriptor, buffered: true)
    }

    func write(_ text: String) { output.write(text) }
    func write(bytes: ArraySlice<UInt8>) { output.write(bytes: bytes) }
    func flush() { output.flush() }

    /// Flushes, syncs and renames the temporary file into place.
    func commit() throws(OutputError) {
        guard !finished else { return }
        finished = true
        output.flush()
        var code = output.errorNumber
        if code == 0, fsync(output.descriptor) != 0 { code = errno }
        if close(output.descriptor) != 0, code == 0 { code = errno }
        try TemporaryFile.rename(temporaryPath, over: path, error: code)
    }

    /// Deletes the temporary file and leaves `path` as it was.
    func discard() {
        guard !finished else { return }
        finished = true
        close(output.descriptor)
        TemporaryFile.removeFile(temporaryPath)
    }

    deinit { discard() }
}
