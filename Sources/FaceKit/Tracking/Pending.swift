/// A value another thread is computing: reading ``value`` waits for it. What the tracker's
/// ``DescriptorWorker`` hands back, so that its work overlaps the main thread's and the results
/// are the same as if done in line.
final class Pending<Value: Sendable>: Sendable {
    /// The value once delivered, `nil` until then; readers wait on it.
    private let result: ConditionMutex<Value?>

    /// A value computing elsewhere; ``fulfil(_:)`` delivers it.
    init() {
        result = ConditionMutex(nil)
    }

    /// A value already known.
    init(_ value: Value) {
        result = ConditionMutex(value)
    }

    /// Whether ``value`` would return without waiting.
    var isReady: Bool {
        result.withLock { $0 != nil }
    }

    /// The value, waiting for it.
    var value: Value {
        result.withLock(when: { $0 != nil }) { $0! }
    }

    func fulfil(_ value: Value) {
        result.withLock { $0 = value }
    }
}

extension Pending: Equatable {
    /// The same computation (identity): a track that kept its descriptors is unchanged.
    static func == (lhs: Pending, rhs: Pending) -> Bool { lhs === rhs }
}
