import Foundation
import Testing

@testable import FaceKit

@Suite("OneEuroFilter")
struct OneEuroFilterTests {
    static let parameters = OneEuroFilter.Parameters(minimumCutoff: 1, speedCoefficient: 4)

    /// Deterministic noise in [-1, 1): a linear congruential generator's bits.
    static func noise(_ i: Int) -> Double {
        let bits = (UInt64(i) &* 6364136223846793005 &+ 1442695040888963407) >> 40
        return Double(bits) / Double(1 << 23) - 1
    }

    @Test("a still value with noise comes out several times steadier")
    func steadies() {
        var filter = OneEuroFilter(parameters: Self.parameters)
        var raw: [Double] = [], filtered: [Double] = []
        for i in 0..<300 {
            let value = 100 + 2 * Self.noise(i)
            raw.append(value)
            filtered.append(filter.filter(value, timestampMs: Double(i) * 33.3, scale: 50))
        }
        func jitter(_ v: [Double]) -> Double { zip(v, v.dropFirst()).map { abs($1 - $0) }.reduce(0, +) / Double(v.count - 1) }
        #expect(jitter(Array(filtered.dropFirst(30))) < jitter(raw) / 3)
    }

    @Test("a steady motion is followed with little lag once the filter has seen its speed")
    func follows() {
        var filter = OneEuroFilter(parameters: Self.parameters)
        var last = 0.0
        for i in 0..<60 {
            // One face width (50 px) per second.
            last = filter.filter(Double(i) * 50 / 30, timestampMs: Double(i) * 1000 / 30, scale: 50)
        }
        let truth = 59 * 50 / 30.0
        #expect(abs(last - truth) < 5, "lag \(truth - last) px")
    }

    @Test("the first value, and a value after time runs backwards, pass through unchanged")
    func restarts() {
        var filter = OneEuroFilter(parameters: Self.parameters)
        #expect(filter.filter(7, timestampMs: 100, scale: 10) == 7)
        #expect(filter.filter(9, timestampMs: 200, scale: 10) != 9)
        #expect(filter.filter(3, timestampMs: 150, scale: 10) == 3)
    }
}
