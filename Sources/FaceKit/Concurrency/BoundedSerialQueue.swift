import Foundation
import Synchronization
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
/// never deinitialises) finishes its jobs before the libraries are torn down, and then takes no
/// more (``finishAtExit()``): a ResNet pass still running in OpenBLAS when its exit handler runs
/// hung the process or crashed it.
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
        /// The process is exiting: no job starts any more.
        var isExiting = false
        /// The queue's thread, once it runs: the one thread that must not wait for the queue.
        var thread: pthread_t?
        /// Jobs queued or running.
        var load: Int { jobs.count + (isRunning ? 1 : 0) }
    }

    private let state = ConditionMutex(State())
    private let limit: Int
    /// The states of the queues alive, for ``finishAtExit()``; each queue removes its own.
    private static let live = Mutex<[ObjectIdentifier: ConditionMutex<State>]>([:])
    /// Registers ``finishAtExit()`` with `atexit` once, when the first queue is made: handlers
    /// run in the reverse order of their registration, so it runs before the exit handlers the
    /// libraries registered when they were loaded, and before any library's destructor.
    private static let exitHandler: Void = { _ = atexit { BoundedSerialQueue.finishAtExit() } }()
    /// How long the exit waits for a queue's jobs: a few ResNet passes take well under a second.
    static let exitTimeout: TimeInterval = 5

    init(label: String, limit: Int) {
        precondition(limit >= 1, "BoundedSerialQueue: limit must be at least 1, not \(limit)")
        self.limit = limit
        _ = Self.exitHandler
        Self.live.withLock { [state] in $0[ObjectIdentifier(state)] = state }
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
        Self.live.withLock { [state] in _ = $0.removeValue(forKey: ObjectIdentifier(state)) }
        state.withLock { $0.isStopping = true }
    }

    /// Waits, at the process's exit, for every live queue's jobs given so far, then stops its
    /// thread before it starts another: none is left running in the libraries (OpenBLAS, dlib,
    /// OpenCV) while their exit handlers and destructors tear them down. A queue whose jobs take
    /// longer than ``exitTimeout`` is left as it is, and so is the queue whose job called `exit`.
    static func finishAtExit() {
        let states = live.withLock { Array($0.values) }
        let deadline = Date(timeIntervalSinceNow: exitTimeout)
        let current = pthread_self()
        for state in states {
            let isOwnThread = state.withLock { $0.thread.map { pthread_equal($0, current) != 0 } ?? false }
            if isOwnThread { continue }
            _ = state.withLock(when: { $0.load == 0 && $0.bodiesRunning == 0 }, before: deadline) { $0.isExiting = true }
        }
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
        state.withLock { $0.thread = pthread_self() }
        while true {
            let job = state.withLock(when: {
                $0.isStopping || $0.isExiting || (!$0.jobs.isEmpty && $0.bodiesRunning == 0)
            }) { (state) -> (@Sendable () -> Void)? in
                guard !state.isExiting, !state.jobs.isEmpty, state.bodiesRunning == 0 else { return nil }
                state.isRunning = true
                return state.jobs.removeFirst()
            }
            guard let job else { return }
            job()
            state.withLock { $0.isRunning = false }
        }
    }
}
