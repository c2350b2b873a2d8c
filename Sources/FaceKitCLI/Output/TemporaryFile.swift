import FaceKit
import FaceKitArguments

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way FaceKit creates a file of its own (an output's hidden temporary file, a report's
/// picture, an annotated copy, `FILE.partial`): in the target's folder, opened once and checked
/// to be a folder (``OpenFolder``), under a hidden name nobody can predict,
/// `.<name>.<random>.tmp<suffix>`, opened `O_CREAT | O_EXCL | O_NOFOLLOW`, and renamed over the
/// target once complete, so that the target holds either its previous content or a whole new
/// file. Nothing is written through a symbolic link planted at a name FaceKit writes: the hidden
/// name cannot be guessed and `O_EXCL` fails on anything already there, and the rename replaces
/// a link at the target instead of following it, so the target ends up FaceKit's regular file and
/// what the link pointed to is left alone. ``OutputFile`` writes every output file this way, and
/// `facekit annotate` its videos; the shim writes the 68-point model's flat copy the same way
/// (CInterop's owned_file.cpp).
///
/// The file is removed if the process is stopped by SIGINT, SIGTERM or SIGHUP before it is renamed
/// or removed (``InterruptCleanup``), by its name in the folder it was made in, and only while
/// that name is still this file. Its descriptor holds an exclusive `flock` while open, which
/// tells a live temporary file from one a killed run left: ``removeStale(nextTo:suffix:)``
/// removes only the latter. The caller closes the descriptor.
///
/// ```swift
/// let temporary = try TemporaryFile(for: "out/clip.mp4", suffix: ".mp4")
/// // temporary.path == "out/.clip.mp4.123456.tmp.mp4"; write, close, then:
/// try temporary.moveIntoPlace()   // out/clip.mp4
/// ```
final class TemporaryFile {
    /// The folder of the file and its target.
    let folder: OpenFolder
    /// The hidden file's path, `.<name>.<random>.tmp<suffix>` in the target's folder.
    let path: String
    /// The file, open for writing and locked.
    let descriptor: Int32
    /// The target's path as named, for messages.
    let target: String
    private let name: String
    private let targetName: String

    /// Creates the hidden file for `target` in its folder (or in `folder`, already open), open
    /// for writing and locked; its permissions are 0666 filtered by the umask, those a plain
    /// `> file` would give.
    init(for target: String, suffix: String = "", in folder: OpenFolder? = nil) throws(OutputError) {
        let folder = if let folder { folder } else { try OpenFolder(holding: target) }
        self.folder = folder
        self.target = target
        targetName = OpenFolder.name(of: target)
        for _ in 0..<100 {
            let name = ".\(targetName).\(UInt32.random(in: 0...UInt32.max)).tmp\(suffix)"
            let path = folder.path(of: name)
            let (descriptor, code) = InterruptCleanup.create(name, in: folder) {
                switch folder.create(name) {
                case .success(let descriptor):
                    _ = flock(descriptor, LOCK_EX | LOCK_NB)
                    return (descriptor, 0)
                case .failure(let refusal):
                    return (-1, refusal.code)
                }
            }
            if descriptor >= 0 {
                (self.name, self.path, self.descriptor) = (name, path, descriptor)
                return
            }
            if code != EEXIST { throw OutputError("\(target): cannot write output: \(systemErrorMessage(code))") }
        }
        throw OutputError("\(target): cannot write output: no free temporary name")
    }

    /// Renames the file over its target, or removes it and reports `error` (an `errno`) when
    /// that is not 0 or the rename fails.
    func moveIntoPlace(error: Int32 = 0) throws(OutputError) {
        let code = error != 0 ? error : folder.rename(name, to: targetName)
        if code != 0 {
            remove()
            throw OutputError("\(target): cannot write output: \(systemErrorMessage(code))")
        }
        InterruptCleanup.forget(path)
    }

    /// Removes the file (it never takes its target's place).
    func remove() {
        folder.remove(name)
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
