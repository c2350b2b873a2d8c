import Foundation
import FaceKit

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
final class OrderedWorkQueue<Worker: Sendable, Input: Sendable, Output: Sendable>: Sendable {
    private let workers: [Worker]
    private let window: Int
    private let work: @Sendable (Worker, Input) -> Output
    /// What the calling thread and the workers share, behind the one lock they wait on.
    private let state = ConditionMutex(State())

    private struct State {
        /// The input sequence's next element; called only with the lock held.
        var nextInput: () -> Input? = { nil }
        /// Set once the input sequence has ended.
        var exhausted = false
        var stopped = false
        var nextToClaim = 0
        var delivered = 0
        var runningWorkers = 0
        /// The inputs claimed but not yet delivered, and the results waiting for delivery.
        var claimed: [Int: Input] = [:]
        var results: [Int: Output] = [:]

        /// Whether the caller waiting for input `index` can go on: its result is in, or the run
        /// stopped, or the inputs ended before it.
        func isDue(_ index: Int) -> Bool {
            results[index] != nil || stopped || (exhausted && index >= nextToClaim)
        }

        /// The input `index` and its result, taken for delivery; `nil` when there is none.
        mutating func take(_ index: Int) -> (Input, Output)? {
            guard !stopped, let output = results.removeValue(forKey: index) else { return nil }
            let input = claimed.removeValue(forKey: index)!
            delivered = index + 1
            return (input, output)
        }

        /// Whether a worker can claim an input, or learn that there is none to claim.
        func mayClaim(window: Int) -> Bool {
            stopped || exhausted || nextToClaim - delivered < window
        }

        /// The next input and its position, read from the sequence; `nil` when the run stopped or
        /// the inputs ended, and the worker leaves.
        mutating func claim() -> (Int, Input)? {
            var input: Input? = nil
            if !stopped && !exhausted {
                input = nextInput()
                if input == nil { exhausted = true }
            }
            guard let input else {
                runningWorkers -= 1
                return nil
            }
            let index = nextToClaim
            nextToClaim += 1
            claimed[index] = input
            return (index, input)
        }
    }

    init(workers: [Worker], window: Int, work: @escaping @Sendable (Worker, Input) -> Output) {
        precondition(
            !workers.isEmpty && window >= workers.count, "OrderedWorkQueue: need workers and a window that fits them")
        self.workers = workers
        self.window = window
        self.work = work
    }

    /// Processes `inputs` and calls `deliver` on the calling thread for each, in order, with its
    /// 0-based position; returns once every input is delivered (or after ``stop()``) and every
    /// worker thread has finished. The worker threads read `inputs`, one at a time.
    ///
    /// When the next result keeps the caller waiting for `idleAfter`, `onIdle` runs once on the
    /// calling thread (then not again until the next delivery): the moment to make what was
    /// delivered so far durable.
    func run<Inputs: Sequence<Input>>(
        inputs: sending Inputs, idleAfter: Duration? = nil, onIdle: () -> Void = {},
        deliver: (Int, Input, Output) -> Void
    ) {
        var iterator = inputs.makeIterator()
        state.replace(with: State(nextInput: { iterator.next() }, runningWorkers: workers.count))
        let threads = workers.map { worker in Thread { [self] in self.workLoop(worker) } }
        threads.forEach { $0.start() }
        var index = 0
        while let (input, output) = nextResult(index, idleAfter: idleAfter, onIdle: onIdle) {
            deliver(index, input, output)
            index += 1
        }
        state.withLock { $0.stopped = true }
        state.withLock(when: { $0.runningWorkers == 0 }) { $0 = State() }
    }

    /// Ends ``run(inputs:idleAfter:onIdle:deliver:)`` after the current delivery.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// Waits for the result of input `index`; `nil` when the inputs are done or the run stopped.
    private func nextResult(_ index: Int, idleAfter: Duration?, onIdle: () -> Void) -> (Input, Output)? {
        if let idleAfter {
            let idleDeadline = Date().addingTimeInterval(Self.seconds(idleAfter))
            if let taken = state.withLock(when: { $0.isDue(index) }, before: idleDeadline, { $0.take(index) }) {
                return taken
            }
            onIdle()
        }
        return state.withLock(when: { $0.isDue(index) }) { $0.take(index) }
    }

    private func workLoop(_ worker: Worker) {
        let window = self.window
        while let (index, input) = state.withLock(when: { $0.mayClaim(window: window) }, { $0.claim() }) {
            let output = work(worker, input)
            state.withLock { $0.results[index] = output }
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
