import FaceKit
import FaceKitArguments

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens the files FaceKit reads or continues on its own (journals, partial files, tables, JSON
/// Lines) only when they are regular files, as the shim does for images and videos.
///
/// A blocking `open` of a named pipe waits for a writer that may never come: one named
/// `faces.csv.journal` would hang every run and every `--resume`. So the file is opened with
/// `O_NONBLOCK`, which returns at once even for a pipe, checked with `fstat`, and only then given
/// back, blocking again.
///
/// ```swift
/// let descriptor = try RegularFile.open("faces.csv.journal", O_RDONLY).get()
/// // a FIFO: .failure(Refusal(code: 0, reason: "not a regular file (a named pipe)"))
/// ```
enum RegularFile {
    /// Why a file was not opened: the `errno` of the failed call, or 0 when it is not a regular
    /// file, and the reason in words.
    struct Refusal: Error, Equatable {
        var code: Int32
        var reason: String
    }

    /// `open(path, flags | O_CLOEXEC, 0666)` (0666 filtered by the umask: the permissions a plain
    /// `> file` would give), refused unless `path` is a regular file.
    static func open(_ path: String, _ flags: Int32) -> Result<Int32, Refusal> {
        let (descriptor, code) = FilePathEncoding.withFileSystemRepresentation(path) { name in
            let descriptor = openFile(name, flags | O_NONBLOCK | O_CLOEXEC, 0o666)
            return (descriptor, descriptor < 0 ? errno : 0)
        }
        guard descriptor >= 0 else { return .failure(Refusal(code: code, reason: systemErrorMessage(code))) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            _ = close(descriptor)
            return .failure(Refusal(code: code, reason: systemErrorMessage(code)))
        }
        if let reason = refusal(info.st_mode) {
            _ = close(descriptor)
            return .failure(Refusal(code: 0, reason: reason))
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return .success(descriptor)
    }

    /// Why a file of type `mode` is not read, `nil` for a regular file: the shim's words.
    static func refusal(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "is a folder"
        case S_IFIFO: "not a regular file (a named pipe)"
        case S_IFSOCK: "not a regular file (a socket)"
        case S_IFCHR: "not a regular file (a character device)"
        case S_IFBLK: "not a regular file (a block device)"
        default: "not a regular file"
        }
    }

    /// The whole content of the regular file at `path`.
    static func read(_ path: String) -> Result<[UInt8], Refusal> {
        let descriptor: Int32
        switch open(path, O_RDONLY) {
        case .success(let opened): descriptor = opened
        case .failure(let refusal): return .failure(refusal)
        }
        defer { _ = close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { readFile(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(Refusal(code: errno, reason: systemErrorMessage(errno)))
            }
            if count == 0 { return .success(bytes) }
            bytes += chunk[..<count]
        }
    }
}

#if canImport(Glibc)
    private func openFile(_ name: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
        Glibc.open(name, flags, mode)
    }
    private func readFile(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        Glibc.read(descriptor, buffer, count)
    }
#else
    private func openFile(_ name: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
        Darwin.open(name, flags, mode)
    }
    private func readFile(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        Darwin.read(descriptor, buffer, count)
    }
#endif
