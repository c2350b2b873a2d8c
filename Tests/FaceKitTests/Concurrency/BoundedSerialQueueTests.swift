import Foundation
import Glibc
import Synchronization
import Testing

@testable import FaceKit

@Suite("A bounded serial queue")
struct BoundedSerialQueueTests {
    /// The calling thread's nice value (on Linux, PRIO_PROCESS with 0 names the calling thread).
    private static func niceOfThisThread() -> Int32 {
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }

    /// The calling thread's name as the system shows it (ps, perf, gdb).
    private static func nameOfThisThread() -> String {
        let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return comm.trimmingCharacters(in: .newlines)
    }

    @Test("jobs run in order, on a thread of its own, named, at a lower priority than its creator")
    func orderThreadAndPriority() {
        let queue = BoundedSerialQueue(label: "FaceKit.Test", limit: 2)
        let seen = Mutex<[(index: Int, name: String, nice: Int32)]>([])
        for index in 0..<6 {
            queue.async { seen.withLock { $0.append((index, Self.nameOfThisThread(), Self.niceOfThisThread())) } }
        }
        queue.sync {}
        let jobs = seen.withLock { $0 }
        #expect(jobs.map(\.index) == Array(0..<6))
        #expect(jobs.allSatisfy { $0.name == "FaceKit.Test" }, "thread names \(jobs.map(\.name))")
        let expected = min(19, Self.niceOfThisThread() + BoundedSerialQueue.backgroundNiceSteps)
        #expect(jobs.allSatisfy { $0.nice == expected }, "nice values \(jobs.map(\.nice)), expected \(expected)")
        #expect(Self.niceOfThisThread() != expected || expected == 19, "the caller's own priority changed")
    }

    @Test("sync runs after every job given before it, and no more than the limit wait")
    func syncAndLimit() {
        let queue = BoundedSerialQueue(label: "FaceKit.Test", limit: 3)
        let gate = DispatchSemaphore(value: 0)
        let done = Mutex(0)
        let largestBacklog = Mutex(0)
        for _ in 0..<3 { queue.async { gate.wait(); done.withLock { $0 += 1 } } }
        // Three jobs are queued or running, all held at the gate: a fourth must wait for a place.
        let fourthGiven = Mutex(false)
        Thread.detachNewThread {
            queue.async { done.withLock { $0 += 1 } }
            fourthGiven.withLock { $0 = true }
        }
        Thread.sleep(forTimeInterval: 0.2)
        largestBacklog.withLock { $0 = fourthGiven.withLock { $0 } ? 4 : 3 }
        for _ in 0..<4 { gate.signal() }
        while !fourthGiven.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.01) }
        let countInSync = queue.sync { done.withLock { $0 } }
        #expect(largestBacklog.withLock { $0 } == 3, "a fourth job was taken while three were waiting")
        #expect(countInSync == 4)
    }
}
