import Dispatch
import Synchronization

/// Blocking work (decoding, detection, describing, clustering) run for an `async` caller on a
/// queue of the call's own: off the caller's actor, and off the few threads that every task
/// shares, which work that blocks for a second would hold. The work is told when the calling
/// task is cancelled, through the closure it is given, and decides itself where to stop (between
/// photos: a native call is not interrupted).
///
/// ```swift
/// let faces = await OffThreadWork.run(label: "FaceKit.Example") { isCancelled in
///     paths.prefix { _ in !isCancelled() }.map { try? detector.process(contentsOfFile: $0) }
/// }
/// ```
enum OffThreadWork {
    static func run<T: Sendable>(
        label: String, _ work: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) -> T
    ) async -> T {
        let flag = CancellationFlag()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DispatchQueue(label: label).async {
                    continuation.resume(returning: work { flag.isSet })
                }
            }
        } onCancel: {
            flag.set()
        }
    }

    /// Set once the task that waits for the work is cancelled.
    final class CancellationFlag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() { value.store(true, ordering: .releasing) }
    }
}
