import Foundation

/// Runs work on many inputs with several threads, each owning its own worker (for FaceKit, a
/// detector, which is not thread-safe), and hands the results back in input order.
///
/// At most `window` inputs are claimed beyond the last one delivered, so memory stays bounded
/// however many inputs there are, and output can be written as it comes while staying in input
/// order (two runs with different thread counts write the same file).
///
/// ```swift
/// let queue = OrderedWorkQueue(workers: detectors, window: 8) { detector, path in try? detector.process(...) }
/// queue.run(inputs: paths) { index, faces in write(faces) }   // index 0, 1, 2, ... in order
/// ```
final class OrderedWorkQueue<Worker: Sendable, Input: Sendable, Output: Sendable>: @unchecked Sendable {
    // @unchecked: every mutable field below is guarded by `condition`, and each worker object is
    // used by exactly one thread.
    private let workers: [Worker]
    private let window: Int
    private let work: (Worker, Input) -> Output
    private let condition = NSCondition()
    private var inputs: [Input] = []
    private var nextToClaim = 0
    private var delivered = 0
    private var results: [Int: Output] = [:]

    init(workers: [Worker], window: Int, work: @escaping (Worker, Input) -> Output) {
        precondition(!workers.isEmpty && window >= workers.count, "OrderedWorkQueue: need workers and a window that fits them")
        self.workers = workers
        self.window = window
        self.work = work
    }

    /// Processes `inputs` and calls `deliver` on the calling thread for each, in order.
    func run(inputs: [Input], deliver: (Int, Output) -> Void) {
        condition.lock()
        self.inputs = inputs
        nextToClaim = 0
        delivered = 0
        results = [:]
        condition.unlock()
        let threads = workers.map { worker in Thread { [self] in self.workLoop(worker) } }
        threads.forEach { $0.start() }
        for index in inputs.indices {
            condition.lock()
            while results[index] == nil { condition.wait() }
            let output = results.removeValue(forKey: index)!
            delivered = index + 1
            condition.broadcast()
            condition.unlock()
            deliver(index, output)
        }
    }

    private func workLoop(_ worker: Worker) {
        while true {
            condition.lock()
            while nextToClaim < inputs.count && nextToClaim - delivered >= window { condition.wait() }
            guard nextToClaim < inputs.count else {
                condition.unlock()
                return
            }
            let index = nextToClaim
            nextToClaim += 1
            let input = inputs[index]
            condition.unlock()
            let output = work(worker, input)
            condition.lock()
            results[index] = output
            condition.broadcast()
            condition.unlock()
        }
    }
}
