import Dispatch

/// A serial queue that holds at most `limit` jobs, queued or running: past that, ``async(_:)``
/// waits for one to finish, so that work handed to a background thread does not pile up in
/// memory. The jobs run one at a time, in the order given; ``DescriptorWorker`` and
/// ``ReportingWorker`` run on one each.
///
/// ```swift
/// let queue = BoundedSerialQueue(label: "FaceKit.Example", limit: 4)
/// queue.async { print("after the jobs given before") }   // waits while 4 are queued or running
/// queue.sync {}                                          // waits for every job given so far
/// ```
final class BoundedSerialQueue: Sendable {
    private let queue: DispatchQueue
    /// Free places: ``async(_:)`` waits on it when all are taken.
    private let slots: DispatchSemaphore

    init(label: String, limit: Int) {
        precondition(limit >= 1, "BoundedSerialQueue: limit must be at least 1, not \(limit)")
        queue = DispatchQueue(label: label)
        slots = DispatchSemaphore(value: limit)
    }

    /// Runs `job` after the jobs given before it, first waiting for a free place.
    func async(_ job: @escaping @Sendable () -> Void) {
        slots.wait()
        queue.async { [slots] in
            defer { slots.signal() }
            job()
        }
    }

    /// Runs `body` after every job given so far, and returns what it returns.
    func sync<T>(_ body: () throws -> T) rethrows -> T {
        try queue.sync(execute: body)
    }
}
