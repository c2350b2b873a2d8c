import Foundation
import Testing
import FaceKitTestSupport

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
        let queue = OrderedWorkQueue(workers: Array(0..<workers), window: workers * 2) { (worker: Int, input: Int) -> [Int] in
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
        queue.run(inputs: Array(0..<200)) { index, output in
            #expect(output[0] == index && output[1] == index * index)
            delivered.append(index)
        }
        #expect(delivered == Array(0..<200))
        #expect(counter.mostActive <= workers)
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
            #expect(one.stdoutLines.count == 5, "header and one row per photo")
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
