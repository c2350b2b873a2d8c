import Foundation
import Testing
@testable import FaceKit

@Suite("SmallEyeCorrection")
struct SmallEyeCorrectionTests {
    let correction = SmallEyeCorrection.fitted

    @Test("from 24 px up the network's probability stands", arguments: [24.0, 30, 200])
    func fullSize(distance: Double) {
        for p in [0.02, 0.3, 0.5, 0.9, 0.999] {
            #expect(correction.corrected(p, interOcularDistance: distance) == p)
        }
    }

    @Test("below 24 px the shipped fit is less sure, more so the smaller the eyes, and keeps the order")
    func lessSure() {
        // Its fit (docs/accuracy.md, "Small eyes") scales the log-odds down and moves them toward
        // closed: a confident reading of a small eye is worth less than of a large one.
        for p in [0.02, 0.1, 0.95, 0.99] {
            let at20 = correction.corrected(p, interOcularDistance: 20)
            let at16 = correction.corrected(p, interOcularDistance: 16)
            #expect(abs(at16 - 0.5) < abs(at20 - 0.5) && abs(at20 - 0.5) < abs(p - 0.5), "\(p): \(at20) at 20 px, \(at16) at 16 px")
        }
        let ordered = [0.05, 0.2, 0.4, 0.6, 0.8, 0.95].map { correction.corrected($0, interOcularDistance: 17) }
        #expect(ordered == ordered.sorted())
    }

    @Test("u is log2(24 / distance), 0 from 24 px up")
    func smallness() {
        #expect(SmallEyeCorrection.smallness(12) == 1)
        #expect(SmallEyeCorrection.smallness(6) == 2)
        #expect(SmallEyeCorrection.smallness(48) == 0)
    }
}
