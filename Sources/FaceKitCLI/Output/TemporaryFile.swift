import FaceKit
import FaceKitArguments

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A hidden temporary file next to an output path, renamed over it once complete, so that the
/// path holds either its previous content or a whole new file. ``OutputFile`` writes every
/// output file this way, and `facekit annotate` its videos.
///
/// The file is removed if the process is stopped by SIGINT or SIGTERM before it is renamed or
/// removed (``InterruptCleanup``). Its descriptor holds an exclusive `flock` while open, which
/// tells a live temporary file from one a killed run left: ``removeStale(nextTo:suffix:)``
/// removes only the latter.
///
/// ```swift
/// let (temporary, descriptor) = try TemporaryFile.create(nextTo: "out/clip.mp4", suffix: ".mp4")
/// // temporary == "out/.clip.mp4.123456.tmp.mp4"; write, close, then:
/// try TemporaryFile.rename(temporary, over: "out/clip.mp4")
/// ```
enum TemporaryFile {
    /// Creates `.<name>.<random>.tmp<suffix>` in `path`'s folder, open for writing and locked.
    static func create(nextTo path: String, suffix: String = "") throws(OutputError) -> (path: String, descriptor: Int32) {
        let (folder, name) = split(path)
        for _ in 0..<100 {
            let candidate = "\(folder).\(name).\(UInt32.random(in: 0...UInt32.max)).tmp\(suffix)"
            // 0666 filtered by the umask: the permissions a plain `> file` would give.
            let (descriptor, code) = InterruptCleanup.create(candidate) { candidate in
                FilePathEncoding.withFileSystemRepresentation(candidate) { name in
                    let descriptor = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
                    if descriptor < 0 { return (descriptor, errno) }
                    _ = flock(descriptor, LOCK_EX | LOCK_NB)
                    return (descriptor, 0)
                }
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
        InterruptCleanup.forget(temporary)
    }

    /// Removes the temporary file at `path`, if any (`unlink`).
    static func removeFile(_ path: String) {
        _ = FilePathEncoding.withFileSystemRepresentation(path) { unlink($0) }
        InterruptCleanup.forget(path)
    }

    /// Removes the temporary files an earlier run left for `path`: those in its folder named
    /// exactly as ``create(nextTo:suffix:)`` names them with `suffix`, `.<name>.<digits>.tmp<suffix>`,
    /// that are regular files no process holds locked (a run writing them holds the lock).
    /// Other files, and names that differ by a byte, are left alone.
    static func removeStale(nextTo path: String, suffix: String = "") {
        let (folder, name) = split(path)
        let prefix = FilePathEncoding.pathBytes("." + name + ".")
        let ending = FilePathEncoding.pathBytes(".tmp" + suffix)
        let stream = FilePathEncoding.withFileSystemRepresentation(folder.isEmpty ? "." : folder) { opendir($0) }
        guard let stream else { return }
        defer { closedir(stream) }
        let listing = dirfd(stream)
        while let entry = readdir(stream) {
            let bytes = withUnsafeBytes(of: &entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard bytes.count > prefix.count + ending.count, bytes.starts(with: prefix),
                bytes.reversed().starts(with: ending.reversed())
            else { continue }
            let number = bytes[prefix.count..<(bytes.count - ending.count)]
            guard number.count <= 10, number.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                continue
            }
            (bytes + [0]).withUnsafeBufferPointer { raw in
                raw.withMemoryRebound(to: CChar.self) { file in
                    let descriptor = openat(listing, file.baseAddress!, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
                    guard descriptor >= 0 else { return }
                    defer { close(descriptor) }
                    var info = stat()
                    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                        flock(descriptor, LOCK_EX | LOCK_NB) == 0
                    else { return }
                    _ = unlinkat(listing, file.baseAddress!, 0)
                }
            }
        }
    }

    /// `path`'s folder with its trailing `/` ("" for none) and its last component.
    private static func split(_ path: String) -> (folder: String, name: String) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return (folder, name)
    }
}
