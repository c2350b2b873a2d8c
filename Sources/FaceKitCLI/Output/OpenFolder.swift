import FaceKit
import FaceKitArguments

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folder of a file FaceKit writes, held open by its descriptor: FaceKit's own files there
/// (``TemporaryFile``s, `FILE.partial`, `FILE.journal`) are created, opened, renamed and removed
/// by name in the folder checked when it was opened (`openat`, `renameat`, `unlinkat`), wherever
/// its path leads later, and a name that is a symbolic link is never followed.
///
/// The path to the folder may go through links: the user named it. A name inside it is another
/// matter: FaceKit never makes a link there, so one found there was planted, and writing through
/// it would write wherever it points (as root, any file).
///
/// ```swift
/// let folder = try OpenFolder(holding: "results/faces.csv")   // results/, open
/// folder.status(of: "faces.csv.journal")                      // lstat: nil when missing
/// ```
final class OpenFolder {
    /// The folder's path, for messages and for the names built on it ("." for the current folder).
    let path: String
    let descriptor: Int32

    /// Opens the folder `file` is in (its path up to the last `/`) and checks that it is one.
    init(holding file: String) throws(OutputError) {
        path = Self.folderPath(of: file)
        let (descriptor, code) = FilePathEncoding.withFileSystemRepresentation(path) { name in
            let descriptor = open(name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            return (descriptor, descriptor < 0 ? errno : 0)
        }
        guard descriptor >= 0 else {
            throw OutputError("\(file): cannot write output: \(systemErrorMessage(code))")
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The path of `name` in the folder.
    func path(of name: String) -> String {
        path == "." ? name : path.hasSuffix("/") ? path + name : path + "/" + name
    }

    /// Creates the new file `name` (`O_CREAT | O_EXCL | O_NOFOLLOW`: nothing may be there, not
    /// even a link), open for writing with `flags`; its permissions are `mode` filtered by the
    /// umask. The descriptor, or the `errno`.
    func create(_ name: String, flags: Int32 = O_WRONLY, mode: mode_t = 0o666) -> Result<Int32, Refusal> {
        let (descriptor, code) = FilePathEncoding.withFileSystemRepresentation(name) { name in
            let descriptor = openat(self.descriptor, name, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            return (descriptor, descriptor < 0 ? errno : 0)
        }
        return descriptor >= 0 ? .success(descriptor) : .failure(Refusal(code: code, reason: systemErrorMessage(code)))
    }

    /// Opens the existing regular file `name` with `flags`, as ``RegularFile/open(_:_:)`` does
    /// (never blocking on a named pipe), but never through a symbolic link: a link is refused
    /// with `ELOOP`.
    func openRegular(_ name: String, _ flags: Int32) -> Result<Int32, Refusal> {
        let (descriptor, code) = FilePathEncoding.withFileSystemRepresentation(name) { name in
            let descriptor = openat(self.descriptor, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            return (descriptor, descriptor < 0 ? errno : 0)
        }
        guard descriptor >= 0 else {
            let reason = code == ELOOP ? Self.linkReason : systemErrorMessage(code)
            return .failure(Refusal(code: code, reason: reason))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            return .failure(Refusal(code: code, reason: systemErrorMessage(code)))
        }
        if let reason = RegularFile.refusal(info.st_mode) {
            close(descriptor)
            return .failure(Refusal(code: 0, reason: reason))
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return .success(descriptor)
    }

    /// What is at `name` itself (`lstat`: a link is a link), `nil` when nothing is.
    func status(of name: String) -> stat? {
        var info = stat()
        let found = FilePathEncoding.withFileSystemRepresentation(name) {
            fstatat(descriptor, $0, &info, AT_SYMLINK_NOFOLLOW) == 0
        }
        return found ? info : nil
    }

    /// Renames `name` to `newName` in the folder, replacing what was there (a link there is
    /// replaced, not followed). 0, or the `errno`.
    func rename(_ name: String, to newName: String) -> Int32 {
        FilePathEncoding.withFileSystemRepresentation(name) { from in
            FilePathEncoding.withFileSystemRepresentation(newName) { to in
                renameat(descriptor, from, descriptor, to) == 0 ? 0 : errno
            }
        }
    }

    /// Removes `name` (a file, or a link itself), if it is there.
    func remove(_ name: String) {
        _ = FilePathEncoding.withFileSystemRepresentation(name) { unlinkat(descriptor, $0, 0) }
    }

    /// Syncs the folder, so that a rename or a new file in it survives a restart.
    func sync() { _ = fsync(descriptor) }

    /// Why a symbolic link at a name FaceKit writes is not opened.
    static let linkReason =
        "a symbolic link, which FaceKit did not make and does not write through: remove it, or choose another name"

    /// Why a file was not opened: the `errno` (0 when it is not a regular file) and the reason.
    typealias Refusal = RegularFile.Refusal

    /// The last component of `path`.
    static func name(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    /// The folder `path` is in: "." for a bare name, "/" for a name at the root.
    static func folderPath(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
