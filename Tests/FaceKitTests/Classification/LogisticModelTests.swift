import Foundation
import Testing
import FaceKit

@Suite("LogisticModel")
struct LogisticModelTests {
    @Test("at the feature means the probability is the logistic of the bias")
    func atMeans() {
        let model = LogisticModel(means: [1, 2], scales: [3, 4], weights: [5, -6], bias: 0.7)
        #expect(abs(model.probability([1, 2]) - 1 / (1 + exp(-0.7))) < 1e-12)
    }
}
