import Foundation
import Synchronization

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
final class BackgroundWalkCount: Sendable {
    /// What the counting thread and its readers share; a `Mutex`, so the compiler checks that
    /// every access holds it.
    private struct State {
        var count: Int?
        var cancelled = false
    }

    private let state = Mutex(State())

    init(paths: [String]) {
        let thread = Thread { [self] in
            var seen = 0
            for _ in ImageFileWalker(paths: paths) {
                seen += 1
                if seen % 256 == 0, state.withLock({ $0.cancelled }) { return }
            }
            state.withLock { $0.count = seen }
        }
        thread.start()
    }

    /// The number of inputs, once counted.
    var total: Int? { state.withLock { $0.count } }

    /// Stops the count if it is still running.
    func cancel() { state.withLock { $0.cancelled = true } }
}
