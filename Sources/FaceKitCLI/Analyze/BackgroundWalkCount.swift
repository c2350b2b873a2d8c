import Foundation

/// Counts the inputs of an ``ImageFileWalker`` walk on a background thread, so that the progress
/// line can show a total while the analysis, which walks the same folders, is already running.
///
/// The count walks names only (see ``ImageFileWalker`` on `stat`), holds one folder listing per
/// level like the walk itself, and is `nil` until the walk ends. ``cancel()`` stops it early.
///
/// ```swift
/// let count = BackgroundWalkCount(paths: ["photos/"])
/// count.total   // nil at first, then 2000
/// ```
final class BackgroundWalkCount: @unchecked Sendable {
    // @unchecked: `count` and `cancelled` are guarded by `lock`.
    private let lock = NSLock()
    private var count: Int?
    private var cancelled = false

    init(paths: [String]) {
        let thread = Thread { [self] in
            var seen = 0
            for _ in ImageFileWalker(paths: paths) {
                seen += 1
                if seen % 256 == 0, lock.withLock({ cancelled }) { return }
            }
            lock.withLock { count = seen }
        }
        thread.start()
    }

    /// The number of inputs, once counted.
    var total: Int? { lock.withLock { count } }

    /// Stops the count if it is still running.
    func cancel() { lock.withLock { cancelled = true } }
}
