import Foundation
internal import CFaceKit

/// A serial queue that holds at most `limit` jobs, queued or running: past that, ``async(_:)``
/// waits for one to finish, so that work handed to a background thread does not pile up in
/// memory. The jobs run one at a time, in the order given; ``DescriptorWorker`` and
/// ``ReportingWorker`` run on one each.
///
/// The jobs run on a thread of the queue's own, named after its label, at a lower priority than
/// its creator's (``backgroundNiceSteps``): the queue is how work is taken off the thread the
/// user waits on (a tracker's), and on a machine whose cores are all busy that thread should not
/// have to share its core equally with the work it handed off, which can fall behind by `limit`
/// jobs. A pool thread (Dispatch's) could not be lowered: it goes on to run other queues' work.
///
/// A queue still alive when the process exits (a tracker in a top-level variable, which Swift
/// never deinitialises) needs nothing of its own: the shim's exit gate (exit_gate.hpp) lets the
/// job inside a native call finish before the libraries are torn down, and parks the thread at
/// its next one.
///
/// ```swift
/// let queue = BoundedSerialQueue(label: "FaceKit.Example", limit: 4)
/// queue.async { print("after the jobs given before") }   // waits while 4 are queued or running
/// queue.sync {}                                          // waits for every job given so far
/// ```
final class BoundedSerialQueue: Sendable {
    /// Nice levels below its creator that the queue's thread runs at: about a third of the
    /// creator's share of a busy core (Linux weighs nice 5 at 335 against 1024). On the
    /// ten-times Hamilton clip it shortened `track` by about 7% (docs/benchmarks.md).
    static let backgroundNiceSteps: Int32 = 5

    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var isRunning = false
        /// ``sync(_:)`` bodies running on their callers' threads: no job starts meanwhile.
        var bodiesRunning = 0
        var isStopping = false
        /// Jobs queued or running.
        var load: Int { jobs.count + (isRunning ? 1 : 0) }
    }

    private let state = ConditionMutex(State())
    private let limit: Int

    init(label: String, limit: Int) {
        precondition(limit >= 1, "BoundedSerialQueue: limit must be at least 1, not \(limit)")
        self.limit = limit
        // The thread holds the state, not the queue, so that the queue's deinit can stop it.
        // Named by the system call from inside: Foundation's `Thread.name` did not always reach
        // the system's name (a thread started from a dispatch worker kept the worker's).
        Thread { [state] in
            fk_thread_set_name(label)
            Self.serve(state)
        }.start()
    }

    /// Every job given holds what it needs, so none is queued once no one holds the queue.
    deinit {
        state.withLock { $0.isStopping = true }
    }

    /// Runs `job` after the jobs given before it, first waiting for a free place.
    func async(_ job: @escaping @Sendable () -> Void) {
        state.withLock(when: { [limit] in $0.load < limit }) { $0.jobs.append(job) }
    }

    /// Runs `body` after every job given so far, and returns what it returns. It runs on the
    /// caller's thread; jobs given meanwhile start after it.
    func sync<T>(_ body: () throws -> T) rethrows -> T {
        state.withLock(when: { $0.load == 0 && $0.bodiesRunning == 0 }) { $0.bodiesRunning += 1 }
        defer { state.withLock { $0.bodiesRunning -= 1 } }
        return try body()
    }

    /// The queue's thread: takes the jobs in order until the queue is gone.
    private static func serve(_ state: ConditionMutex<State>) {
        _ = fk_thread_lower_priority(backgroundNiceSteps)
        while true {
            let job = state.withLock(when: {
                $0.isStopping || (!$0.jobs.isEmpty && $0.bodiesRunning == 0)
            }) { (state) -> (@Sendable () -> Void)? in
                guard !state.jobs.isEmpty, state.bodiesRunning == 0 else { return nil }
                state.isRunning = true
                return state.jobs.removeFirst()
            }
            guard let job else { return }
            job()
            state.withLock { $0.isRunning = false }
        }
    }
}
