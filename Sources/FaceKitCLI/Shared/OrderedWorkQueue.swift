import Foundation

/// Runs work on many inputs with several threads, each with its own worker (for FaceKit, a
/// detector: one may be shared, but its network runs one call at a time), and hands the results
/// back in input order.
///
/// The inputs are a sequence read lazily, one at a time as a worker becomes free (for
/// `facekit analyze`, the streamed folder walk): at most `window` inputs are read beyond the last
/// one delivered, so memory stays bounded however many inputs there are, and output can be
/// written as it comes while staying in input order (two runs with different thread counts write
/// the same file). ``stop()``, called from `deliver`, ends the run early: the workers finish the
/// input they hold, and nothing more is delivered.
///
/// ```swift
/// let queue = OrderedWorkQueue(workers: detectors, window: 8) { detector, path in try? detector.process(...) }
/// queue.run(inputs: paths) { index, path, faces in write(faces) }   // index 0, 1, 2, ... in order
/// ```
final class OrderedWorkQueue<Worker: Sendable, Input: Sendable, Output: Sendable>: @unchecked Sendable {
    // @unchecked: every mutable field below is guarded by `condition` (a condition variable,
    // which Synchronization.Mutex does not offer), and the input iterator is only advanced while
    // holding it. Workers and the work closure are Sendable, checked by the compiler.
    private let workers: [Worker]
    private let window: Int
    private let work: @Sendable (Worker, Input) -> Output
    private let condition = NSCondition()
    private var nextInput: () -> Input? = { nil }
    /// Set once the input sequence has ended.
    private var exhausted = false
    private var stopped = false
    private var nextToClaim = 0
    private var delivered = 0
    private var runningWorkers = 0
    /// The inputs claimed but not yet delivered, and the results waiting for delivery.
    private var claimed: [Int: Input] = [:]
    private var results: [Int: Output] = [:]

    init(workers: [Worker], window: Int, work: @escaping @Sendable (Worker, Input) -> Output) {
        precondition(
            !workers.isEmpty && window >= workers.count, "OrderedWorkQueue: need workers and a window that fits them")
        self.workers = workers
        self.window = window
        self.work = work
    }

    /// Processes `inputs` and calls `deliver` on the calling thread for each, in order, with its
    /// 0-based position; returns once every input is delivered (or after ``stop()``) and every
    /// worker thread has finished.
    ///
    /// When the next result keeps the caller waiting for `idleAfter`, `onIdle` runs once on the
    /// calling thread (then not again until the next delivery): the moment to make what was
    /// delivered so far durable.
    func run<Inputs: Sequence<Input>>(
        inputs: Inputs, idleAfter: Duration? = nil, onIdle: () -> Void = {}, deliver: (Int, Input, Output) -> Void
    ) {
        var iterator = inputs.makeIterator()
        condition.lock()
        nextInput = { iterator.next() }
        exhausted = false
        stopped = false
        nextToClaim = 0
        delivered = 0
        claimed = [:]
        results = [:]
        runningWorkers = workers.count
        condition.unlock()
        let threads = workers.map { worker in Thread { [self] in self.workLoop(worker) } }
        threads.forEach { $0.start() }
        var index = 0
        while let (input, output) = nextResult(index, idleAfter: idleAfter, onIdle: onIdle) {
            deliver(index, input, output)
            index += 1
        }
        condition.lock()
        stopped = true
        condition.broadcast()
        while runningWorkers > 0 { condition.wait() }
        nextInput = { nil }
        claimed = [:]
        results = [:]
        condition.unlock()
    }

    /// Ends ``run(inputs:idleAfter:onIdle:deliver:)`` after the current delivery.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the result of input `index`; `nil` when the inputs are done or the run stopped.
    private func nextResult(_ index: Int, idleAfter: Duration?, onIdle: () -> Void) -> (Input, Output)? {
        condition.lock()
        defer { condition.unlock() }
        let idleDeadline = idleAfter.map { Date().addingTimeInterval(Self.seconds($0)) }
        var idleReported = idleDeadline == nil
        while results[index] == nil && !stopped && !(exhausted && index >= nextToClaim) {
            if !idleReported, let idleDeadline {
                if !condition.wait(until: idleDeadline) {
                    idleReported = true
                    condition.unlock()
                    onIdle()
                    condition.lock()
                }
            } else {
                condition.wait()
            }
        }
        guard !stopped, let output = results.removeValue(forKey: index) else { return nil }
        let input = claimed.removeValue(forKey: index)!
        delivered = index + 1
        condition.broadcast()
        return (input, output)
    }

    private func workLoop(_ worker: Worker) {
        condition.lock()
        while true {
            while !stopped && !exhausted && nextToClaim - delivered >= window { condition.wait() }
            var input: Input? = nil
            if !stopped && !exhausted {
                input = nextInput()
                if input == nil { exhausted = true }
            }
            guard let input else {
                runningWorkers -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let index = nextToClaim
            nextToClaim += 1
            claimed[index] = input
            condition.unlock()
            let output = work(worker, input)
            condition.lock()
            results[index] = output
            condition.broadcast()
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
