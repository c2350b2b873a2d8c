#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lock on a run's journal (`FILE.journal`): held exclusively by the run writing `FILE`
/// (``ResumableFileOutput``), tried shared by `facekit status` and `merge` to tell a running shard
/// from a stopped one (``ShardRecord``).
///
/// A lock found held is tried again for up to half a second before it counts as another run's: a
/// process that starts a child lends it every descriptor from the fork to the exec (close-on-exec
/// ones too), so a run that closed its journal a moment ago may still hold the lock through a
/// child that another thread is starting, as `swift test` does when it runs tests side by side.
enum JournalLock {
    /// Tries to take the lock on `descriptor`: `nil` once taken, else the `errno` of the last try
    /// (`EWOULDBLOCK`: another run holds it).
    static func take(_ descriptor: Int32, exclusive: Bool) -> Int32? {
        let tries = 50
        for attempt in 1...tries {
            if flock(descriptor, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 { return nil }
            let code = errno
            guard code == EWOULDBLOCK, attempt < tries else { return code }
            usleep(10_000)
        }
        return EWOULDBLOCK
    }
}
