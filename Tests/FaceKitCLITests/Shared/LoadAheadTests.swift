import Dispatch
import Foundation
import Testing

@testable import FaceKitCLI

@Suite("LoadAhead")
struct LoadAheadTests {
    /// Counts the loads a test's sequence starts.
    final class Loads: @unchecked Sendable {
        let lock = NSLock()
        var started: [Int] = []
        func start(_ input: Int) { lock.withLock { started.append(input) } }
        var count: Int { lock.withLock { started.count } }
    }

    @Test("each element comes in order with its own load, loaded once, and at most one is loaded ahead")
    func orderAndLookahead() {
        let loads = Loads()
        let sequence = LoadAhead(Array(0..<50)) { input in
            loads.start(input)
            return input * input
        }
        var taken = 0
        for (input, loaded) in sequence {
            #expect(input == taken)
            // None beyond the next one's has started.
            #expect(loads.count <= taken + 2)
            #expect(loaded.take() == input * input)
            taken += 1
        }
        #expect(taken == 50)
        #expect(loads.started.sorted() == Array(0..<50))
    }

    @Test("the next element loads while the consumer holds this one, without asking for it")
    func loadsAhead() {
        let secondLoaded = DispatchSemaphore(value: 0)
        let sequence = LoadAhead([0, 1, 2]) { input in
            if input == 1 { secondLoaded.signal() }
            return input
        }
        let first = sequence.next()
        #expect(first?.loaded.take() == 0)
        // Bounded only so that a sequence that never loads ahead fails rather than hangs.
        #expect(secondLoaded.wait(timeout: .now() + .seconds(120)) == .success)
        #expect(sequence.next()?.input == 1)
    }

    @Test("an empty sequence ends at once, loading nothing")
    func empty() {
        let loads = Loads()
        let sequence = LoadAhead([Int]()) { input in loads.start(input) }
        #expect(sequence.next() == nil)
        #expect(sequence.next() == nil)
        #expect(loads.count == 0)
    }

    @Test("a sequence left early waits for the load it started ahead")
    func endWaitsForTheLoadAhead() {
        let release = DispatchSemaphore(value: 0)
        let finished = Loads()
        var sequence: LoadAhead<[Int], Int>? = LoadAhead([0, 1, 2]) { input in
            if input == 1 { release.wait() }
            finished.start(input)
            return input
        }
        #expect(sequence?.next()?.loaded.take() == 0)
        // Element 1 is loading ahead, held until the release: the sequence's end must wait for it.
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { release.signal() }
        sequence = nil
        #expect(finished.started == [0, 1])
    }
}
