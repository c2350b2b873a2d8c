import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A named pipe (`mkfifo`) that notices when something opens it for reading, and then lets that
/// reader go, so that code which wrongly opens it fails a test instead of hanging it.
///
/// Opening a pipe for reading blocks until a writer opens it. A background thread keeps trying
/// to open the write end without blocking, which succeeds only while a reader has it open; when
/// it does, ``wasOpened`` becomes true and the write end is closed at once, so the reader sees an
/// empty file and goes on.
///
/// ```swift
/// let pipe = try NamedPipe(path: folder + "/x.jpg")
/// defer { pipe.stop() }
/// // ... run the code under test ...
/// #expect(!pipe.wasOpened)
/// ```
public final class NamedPipe: @unchecked Sendable {
    // @unchecked: `opened` and `stopped` are guarded by `lock`.
    public let path: String
    private let lock = NSLock()
    private var opened = false
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    /// Makes the pipe at `path` and starts watching it.
    public init(path: String) throws {
        self.path = path
        guard mkfifo(path, 0o644) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        let thread = Thread { [self] in
            while !lock.withLock({ stopped }) {
                let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                if descriptor >= 0 {
                    lock.withLock { opened = true }
                    close(descriptor)
                }
                usleep(2_000)
            }
            done.signal()
        }
        thread.start()
    }

    /// Whether anything has opened the pipe for reading so far.
    public var wasOpened: Bool { lock.withLock { opened } }

    /// Stops watching; call it before the pipe's folder is removed.
    public func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        if first { done.wait() }
    }
}
