import Foundation
import Testing

@testable import FaceKit

@Suite("ConditionMutex")
struct ConditionMutexTests {
    @Test("a thread waiting for the state goes on once another thread sets it")
    func waitsForAnotherThread() {
        let answer = ConditionMutex<Int?>(nil)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { answer.withLock { $0 = 42 } }
        #expect(answer.withLock(when: { $0 != nil }) { $0! } == 42)
    }

    @Test("a wait with a deadline gives up at it, without running its body")
    func givesUpAtTheDeadline() {
        let count = ConditionMutex(0)
        let start = Date()
        let result = count.withLock(when: { $0 > 0 }, before: start.addingTimeInterval(0.05)) { value -> Int in
            value += 1
            return value
        }
        #expect(result == nil)
        #expect(Date().timeIntervalSince(start) >= 0.05)
        #expect(count.withLock { $0 } == 0)
    }

    @Test("a condition that already holds does not wait, even past the deadline")
    func doesNotWaitWhenReady() {
        let count = ConditionMutex(1)
        #expect(count.withLock(when: { $0 > 0 }, before: .distantPast) { $0 } == 1)
    }
}
