import FaceKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A hidden temporary file next to an output path, renamed over it once complete, so that the
/// path holds either its previous content or a whole new file. ``AtomicFileOutput`` writes
/// tables this way, `facekit annotate` images and videos.
///
/// ```swift
/// let (temporary, descriptor) = try TemporaryFile.create(nextTo: "out/clip.mp4", suffix: ".mp4")
/// // temporary == "out/.clip.mp4.123456.tmp.mp4"; write, close, then:
/// try TemporaryFile.rename(temporary, over: "out/clip.mp4")
/// ```
enum TemporaryFile {
    /// Creates `.<name>.<random>.tmp<suffix>` in `path`'s folder, open for writing.
    static func create(nextTo path: String, suffix: String = "") throws(OutputError) -> (path: String, descriptor: Int32) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        for _ in 0..<100 {
            let candidate = "\(folder).\(name).\(UInt32.random(in: 0...UInt32.max)).tmp\(suffix)"
            // 0666 filtered by the umask: the permissions a plain `> file` would give.
            let (descriptor, code) = FilePathEncoding.withFileSystemRepresentation(candidate) { name in
                let descriptor = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
                return (descriptor, descriptor < 0 ? errno : 0)
            }
            if descriptor >= 0 { return (candidate, descriptor) }
            if code != EEXIST { throw OutputError("\(path): cannot write output: \(systemErrorMessage(code))") }
        }
        throw OutputError("\(path): cannot write output: no free temporary name")
    }

    /// Renames `temporary` over `path`, or removes it and reports `error` (an `errno`) when that
    /// is not 0 or the rename fails.
    static func rename(_ temporary: String, over path: String, error: Int32 = 0) throws(OutputError) {
        var code = error
        if code == 0 {
            code = FilePathEncoding.withFileSystemRepresentation(temporary) { from in
                FilePathEncoding.withFileSystemRepresentation(path) { to in
                    #if canImport(Glibc)
                        Glibc.rename(from, to) == 0 ? 0 : errno
                    #else
                        Darwin.rename(from, to) == 0 ? 0 : errno
                    #endif
                }
            }
        }
        if code != 0 {
            removeFile(temporary)
            throw OutputError("\(path): cannot write output: \(systemErrorMessage(code))")
        }
    }

    /// Removes the file at `path`, if any (`unlink`).
    static func removeFile(_ path: String) {
        _ = FilePathEncoding.withFileSystemRepresentation(path) { unlink($0) }
    }
}
