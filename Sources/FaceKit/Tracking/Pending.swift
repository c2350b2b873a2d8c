/// A value another thread is computing: reading ``value`` waits for it. What the tracker's
/// ``DescriptorWorker`` hands back, so that its work overlaps the main thread's and the results
/// are the same as if done in line.
final class Pending<Value: Sendable>: Sendable {
    /// The value once delivered, `nil` until then; readers wait on it.
    private let result: ConditionMutex<Value?>
    /// Run by a reader before it waits: work the reader can do itself rather than sit idle
    /// (``DescriptorWorker/help(awaiting:)``).
    private let beforeWaiting: (@Sendable (Pending) -> Void)?

    /// A value computing elsewhere; ``fulfil(_:)`` delivers it. A reader that finds it not ready
    /// calls `beforeWaiting` with it first.
    init(beforeWaiting: (@Sendable (Pending) -> Void)? = nil) {
        result = ConditionMutex(nil)
        self.beforeWaiting = beforeWaiting
    }

    /// A value already known.
    init(_ value: Value) {
        result = ConditionMutex(value)
        beforeWaiting = nil
    }

    /// Whether ``value`` would return without waiting.
    var isReady: Bool {
        result.withLock { $0 != nil }
    }

    /// The value, waiting for it.
    var value: Value {
        if let beforeWaiting, !isReady { beforeWaiting(self) }
        return result.withLock(when: { $0 != nil }) { $0! }
    }

    func fulfil(_ value: Value) {
        result.withLock { $0 = value }
    }
}

extension Pending: Equatable {
    /// The same computation (identity): a track that kept its descriptors is unchanged.
    static func == (lhs: Pending, rhs: Pending) -> Bool { lhs === rhs }
}
