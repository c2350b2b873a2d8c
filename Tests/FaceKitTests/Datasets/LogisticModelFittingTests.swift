import Foundation
import Testing

import FaceKit
@testable import FaceKitDatasets

@Suite("LogisticModel fitting")
struct LogisticModelFittingTests {
    @Test("fitting recovers the direction and base rate of noisy one-feature data")
    func fit() {
        // x uniform in [0, 1); P(y | x) = x, deterministic by a fixed quasi-random sequence.
        let xs = (0..<2000).map { Double($0) / 2000 }
        let labels = xs.enumerated().map { i, x in Double((i * 7919) % 2000) / 2000 < x }
        let model = LogisticModel.fit(samples: xs.map { [$0] }, labels: labels)
        #expect(model.weights[0] > 0)
        #expect(abs(model.probability([0.5]) - 0.5) < 0.05)
        #expect(model.probability([0.9]) > 0.75 && model.probability([0.1]) < 0.25)
    }

    @Test("the linear solver solves a small symmetric system")
    func solve() {
        let x = LogisticModel.solve([[4, 1, 0], [1, 3, 1], [0, 1, 2]], [1, 2, 3])
        let expected = [0.2222222222, 0.1111111111, 1.4444444444]
        for (a, b) in zip(x, expected) { #expect(abs(a - b) < 1e-9) }
    }
}
