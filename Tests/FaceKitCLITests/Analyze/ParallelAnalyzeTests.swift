import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

@Suite("OrderedWorkQueue")
struct OrderedWorkQueueTests {
    final class Counter: @unchecked Sendable {
        let lock = NSLock()
        var active = 0
        var mostActive = 0
    }

    @Test("results arrive in input order, computed by every worker", arguments: [1, 2, 4])
    func order(workers: Int) {
        let counter = Counter()
        let queue = OrderedWorkQueue(workers: Array(0..<workers), window: workers * 2) {
            (worker: Int, input: Int) -> [Int] in
            counter.lock.withLock {
                counter.active += 1
                counter.mostActive = max(counter.mostActive, counter.active)
            }
            // Uneven work, so later inputs often finish first.
            var x = 0
            for i in 0..<((input % 7) * 20_000) { x &+= i }
            counter.lock.withLock { counter.active -= 1 }
            return [input, input * input, x & 0, worker]
        }
        var delivered: [Int] = []
        queue.run(inputs: Array(0..<200)) { index, input, output in
            #expect(input == index && output[0] == index && output[1] == index * index)
            delivered.append(index)
        }
        #expect(delivered == Array(0..<200))
        #expect(counter.mostActive <= workers)
    }

    /// A sequence that counts how far it has been read.
    final class CountingInputs: Sequence, @unchecked Sendable {
        let lock = NSLock()
        let count: Int
        var read = 0
        init(count: Int) { self.count = count }
        func makeIterator() -> AnyIterator<Int> {
            AnyIterator { [self] in
                lock.withLock {
                    guard read < count else { return nil }
                    read += 1
                    return read - 1
                }
            }
        }
    }

    @Test("inputs are read lazily, never more than the window beyond the last delivered", arguments: [1, 3])
    func lazyInputs(workers: Int) {
        let inputs = CountingInputs(count: 100)
        let window = workers * 2
        let queue = OrderedWorkQueue(workers: Array(0..<workers), window: window) { (_: Int, input: Int) in input }
        var delivered = 0
        queue.run(inputs: inputs) { index, input, _ in
            #expect(index == input)
            let read = inputs.lock.withLock { inputs.read }
            #expect(read <= index + 1 + window)
            delivered += 1
        }
        #expect(delivered == 100)
        #expect(inputs.read == 100)
    }

    @Test("stop during a delivery ends the run after it, and a later run starts afresh")
    func stop() {
        let queue = OrderedWorkQueue(workers: [0, 1], window: 4) { (_: Int, input: Int) in input * 2 }
        var delivered: [Int] = []
        queue.run(inputs: 0..<50) { index, _, output in
            delivered.append(output)
            if index == 6 { queue.stop() }
        }
        #expect(delivered == Array(0...6).map { $0 * 2 })
        delivered = []
        queue.run(inputs: 0..<5) { _, _, output in delivered.append(output) }
        #expect(delivered == [0, 2, 4, 6, 8])
    }

    @Test("an empty input sequence delivers nothing")
    func empty() {
        let queue = OrderedWorkQueue(workers: [0, 1, 2], window: 3) { (_: Int, input: Int) in input }
        var delivered = 0
        queue.run(inputs: [Int]()) { _, _, _ in delivered += 1 }
        #expect(delivered == 0)
    }
}

@Suite("analyze --jobs", .needsModels)
struct ParallelAnalyzeTests {
    @Test("one and three workers write the same rows and errors in the same order")
    func sameOutput() throws {
        try TestSupport.withTemporaryFolder { folder in
            for name in ["astronaut.png", "astronaut.jpg", "astronaut-gray.png", "astronaut-portrait-exif6.jpg"] {
                try TestSupport.makeFile(
                    folder, "photos/" + name, contents: Data(contentsOf: URL(fileURLWithPath: TestData.fixture(name))))
            }
            try TestSupport.makeFile(folder, "photos/broken.jpg", contents: Data("not a photo".utf8))
            let one = TestSupport.analyze(["--jobs", "1", folder + "/photos"])
            let three = TestSupport.analyze(["--jobs", "3", folder + "/photos"])
            #expect(one.status == 1 && three.status == 1)
            #expect(one.stdoutLines.count == 6, "header and one row per input, the broken one's failed")
            #expect(one.stdout == three.stdout)
            #expect(one.stderr == three.stderr)
        }
    }

    @Test("--jobs must be at least 1")
    func zeroJobs() {
        let run = TestSupport.analyze(["--jobs", "0", TestSupport.astronaut])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--jobs"))
    }
}
