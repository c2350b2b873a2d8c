import FaceKit
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Removes files when the process is stopped by SIGINT (Ctrl-C), SIGTERM or SIGHUP (the terminal or
/// SSH session going away), then lets the signal end the process as it would have, so the exit
/// status still names it (130 for Ctrl-C in a shell).
///
/// ``TemporaryFile`` creates every hidden temporary file through ``create(_:in:opening:)`` and
/// forgets it once it is renamed into place or removed, so that an interrupted `annotate` (or
/// `track --output`) leaves no `.clip.mp4.123.tmp.mp4` behind. A file is removed by its name in
/// the folder it was created in (a descriptor of that folder is kept), and only while that name is
/// still the file created (its device and inode): a folder whose path was turned into a link, or
/// a file swapped in at the name, is left alone (``OwnedFile``). The first registration installs
/// the handlers. A signal handler may do almost nothing safely, so it only writes the signal's number
/// to a pipe; a thread waiting on the pipe removes the files and sends the signal again, with its
/// default action restored. A signal the process was started ignoring (`nohup`, a shell's `&`)
/// stays ignored. A run that can be continued says how first (``announce(_:)``), on standard
/// error, after erasing a progress line there.
///
/// ```swift
/// let folder = try OpenFolder(holding: "out.csv")
/// let (descriptor, _) = InterruptCleanup.create(".out.csv.123.tmp", in: folder) {
///     switch folder.create(".out.csv.123.tmp") {
///     case .success(let descriptor): (descriptor, 0)
///     case .failure(let refusal): (-1, refusal.code)
///     }
/// }
/// // ... Ctrl-C here: the file is removed, and the process ends by SIGINT
/// InterruptCleanup.forget(".out.csv.123.tmp")
/// ```
enum InterruptCleanup {
    /// A file to remove on interruption: its name in a folder held open by a descriptor of its
    /// own, and the file's device and inode once created.
    struct OwnedFile {
        var folder: Int32
        /// The name, NUL-terminated.
        var name: [CChar]
        var device: UInt64
        var inode: UInt64

        /// Records the file just created as `name` in `folder`, open at `descriptor`; `nil` when
        /// its identity or a descriptor of the folder cannot be had.
        init?(name: String, in folder: OpenFolder, descriptor: Int32) {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { return nil }
            let copy = fcntl(folder.descriptor, F_DUPFD_CLOEXEC, 0)
            guard copy >= 0 else { return nil }
            self.folder = copy
            self.name = FilePathEncoding.pathBytes(name).map { CChar(bitPattern: $0) } + [0]
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }

        /// Removes the file if its name in its folder is still that very file: never another file
        /// swapped in at the name, and never a file in another folder, wherever the folder's path
        /// leads now. Whether it was removed.
        @discardableResult
        func removeIfUnchanged() -> Bool {
            var info = stat()
            guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0, UInt64(info.st_dev) == device,
                UInt64(info.st_ino) == inode
            else { return false }
            return unlinkat(folder, name, 0) == 0
        }

        /// Closes the folder's descriptor.
        func release() { _ = close(folder) }
    }

    private struct State {
        /// The files to remove, by path.
        var files: [String: OwnedFile] = [:]
        /// The line to write on standard error when interrupted, LF included.
        var announcement: [UInt8]?
        var installed = false
        /// What the next signal calls instead of ending the process (``stopping(with:during:)``).
        var gentleStop: (@Sendable () -> Void)?
    }

    private static let state = Mutex(State())

    /// The signals handled.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The pipe the handler writes to: (read end, write end).
    private static let signalPipe: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return (-1, -1) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }()

    /// Runs `open`, which creates the file `name` in `folder` and returns its descriptor
    /// (negative when it could not, with the `errno`), and from then on, until ``forget(_:)``
    /// with its path (`folder.path(of: name)`), removes the file if the process is interrupted
    /// (``OwnedFile/removeIfUnchanged()``). Once the cleanup has started, `open` does not run: it
    /// waits while the process ends.
    static func create(_ name: String, in folder: OpenFolder, opening open: () -> (descriptor: Int32, code: Int32))
        -> (descriptor: Int32, code: Int32)
    {
        state.withLock { state in
            installIfNeeded(&state)
            let opened = open()
            if opened.descriptor >= 0, let file = OwnedFile(name: name, in: folder, descriptor: opened.descriptor) {
                state.files[folder.path(of: name)]?.release()
                state.files[folder.path(of: name)] = file
            }
            return opened
        }
    }

    /// Runs `body`; while it runs, the first SIGINT, SIGTERM or SIGHUP calls `stop` (on another thread)
    /// instead of ending the process, so that a live source can end as if the stream had: rows
    /// complete, summary written, exit 0. A second signal ends the process as usual.
    static func stopping<T>(with stop: @escaping @Sendable () -> Void, during body: () throws -> T) rethrows -> T {
        state.withLock { state in
            installIfNeeded(&state)
            state.gentleStop = stop
        }
        defer { state.withLock { $0.gentleStop = nil } }
        return try body()
    }

    /// Stops removing `path` on interruption: it was renamed into place, or removed.
    static func forget(_ path: String) {
        state.withLock { $0.files.removeValue(forKey: path)?.release() }
    }

    /// Writes `line` on standard error if the process is interrupted from now on, until
    /// ``withdraw()``: how to continue a run that `--resume` can continue (``ResumeHint``).
    static func announce(_ line: String) {
        state.withLock { state in
            installIfNeeded(&state)
            state.announcement = Array((line + "\n").utf8)
        }
    }

    /// Stops announcing: the run finished, and there is nothing left to continue.
    static func withdraw() {
        state.withLock { $0.announcement = nil }
    }

    private static func installIfNeeded(_ state: inout State) {
        guard !state.installed else { return }
        installHandlers()
        state.installed = true
    }

    private static func installHandlers() {
        let (readEnd, writeEnd) = signalPipe
        guard readEnd >= 0, writeEnd >= 0 else { return }
        let handler: @convention(c) (Int32) -> Void = { number in
            // The interrupted code may be about to read errno.
            let saved = errno
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(InterruptCleanup.signalPipe.write, &byte, 1)
            errno = saved
        }
        for number in signals {
            let previous = signal(number, handler)
            if unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                _ = signal(number, SIG_IGN)
            }
        }
        let watcher = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 {
                    let gentle = state.withLock { state in
                        defer { state.gentleStop = nil }
                        return state.gentleStop
                    }
                    if let gentle {
                        gentle()
                        continue
                    }
                    removeFilesAndStop(signal: Int32(byte))
                }
                if count < 0 && errno == EINTR { continue }
                // The pipe failed: let the signals end the process as before, without the cleanup.
                for number in signals { _ = signal(number, SIG_DFL) }
                return
            }
        }
        watcher.name = "facekit interrupt cleanup"
        watcher.start()
    }

    /// Removes every registered file and ends the process by `number`. The lock is never given
    /// back, so no temporary file can be created after the removal.
    private static func removeFilesAndStop(signal number: Int32) -> Never {
        state.withLock { state -> Never in
            for file in state.files.values { file.removeIfUnchanged() }
            if let line = state.announcement {
                // The progress line (and the ^C echoed after it) erased first, so the line stands alone.
                let text = (isatty(2) == 1 ? Array("\r\u{1B}[K".utf8) : []) + line
                _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            }
            _ = signal(number, SIG_DFL)
            // This thread, at least, takes the signal, whatever mask the process was started with.
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, number)
            pthread_sigmask(SIG_UNBLOCK, &only, nil)
            kill(getpid(), number)
            while true { pause() }
        }
    }
}
