import Foundation

/// A `Synchronization.Mutex` that its holder can wait on: the lock of state that threads wait
/// for (a value still computing, a free place in a window, a result due), which `Mutex` cannot
/// serve, as it has no condition variable.
///
/// As with `Mutex`, the state is reached only inside a `withLock` closure and only as
/// `inout sending`, so the compiler checks that no part of it that is not `Sendable` leaves the
/// lock; a new state that is not `Sendable` comes in through ``replace(with:)``. Every call
/// wakes the waiting threads when it ends, and
/// ``withLock(when:_:)`` waits, letting go of the lock, until its condition holds for the state,
/// then runs its body with the lock held.
///
/// ```swift
/// let answer = ConditionMutex<Int?>(nil)
/// // one thread:               answer.withLock { $0 = 42 }
/// // another, waiting for it:  answer.withLock(when: { $0 != nil }) { $0! }   // 42
/// ```
package final class ConditionMutex<State>: @unchecked Sendable {
    // @unchecked for the reason Mutex's own conformance is: `state` is touched only while
    // `condition` is held, and only through closures that take it as `inout sending`.
    private let condition = NSCondition()
    private var state: State

    package init(_ initialState: consuming sending State) {
        state = initialState
    }

    /// Replaces the state with `newState`, which the caller gives up (`sending`: a value that is
    /// not `Sendable` can be handed over this way, not through a `withLock` closure, which may
    /// only capture what is), and wakes the waiting threads.
    package func replace(with newState: consuming sending State) {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        state = newState
    }

    /// Runs `body` with the state, holding the lock; then wakes the waiting threads.
    package func withLock<Result, E: Error>(
        _ body: (inout sending State) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&state)
    }

    /// Waits until `isReady` holds for the state, then runs `body` with it, holding the lock.
    /// `isReady` only looks at the state; it is checked with the lock held, at first and after
    /// every other `withLock`.
    package func withLock<Result, E: Error>(
        when isReady: (inout sending State) -> Bool, _ body: (inout sending State) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        while !isReady(&state) { condition.wait() }
        return try body(&state)
    }

    /// The same, giving up at `deadline`: `nil` when the wait for `isReady` ran past it, and
    /// then `body` has not run.
    package func withLock<Result, E: Error>(
        when isReady: (inout sending State) -> Bool, before deadline: Date,
        _ body: (inout sending State) throws(E) -> sending Result
    ) throws(E) -> sending Result? {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        while !isReady(&state) {
            if !condition.wait(until: deadline) { return nil }
        }
        return try body(&state)
    }
}
