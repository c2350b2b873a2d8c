import Foundation

/// A value another thread is computing: reading ``value`` waits for it. What the tracker's
/// ``DescriptorWorker`` hands back, so that its work overlaps the main thread's and the results
/// are the same as if done in line.
final class Pending<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Value?
    private var isFulfilled = false

    /// A value computing elsewhere; ``fulfil(_:)`` delivers it.
    init() {}

    /// A value already known.
    init(_ value: Value) {
        result = value
        isFulfilled = true
    }

    /// Whether ``value`` would return without waiting.
    var isReady: Bool {
        condition.withLock { isFulfilled }
    }

    /// The value, waiting for it.
    var value: Value {
        condition.lock()
        defer { condition.unlock() }
        while !isFulfilled { condition.wait() }
        return result!
    }

    func fulfil(_ value: Value) {
        condition.withLock {
            result = value
            isFulfilled = true
            condition.broadcast()
        }
    }
}

extension Pending: Equatable {
    /// The same computation (identity): a track that kept its descriptors is unchanged.
    static func == (lhs: Pending, rhs: Pending) -> Bool { lhs === rhs }
}
