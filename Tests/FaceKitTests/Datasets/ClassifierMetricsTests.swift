import Testing
import FaceKitDatasets

@Suite("ClassifierMetrics")
struct ClassifierMetricsTests {
    @Test("ROC AUC is 1 for a perfect ranking, 0 for a reversed one, 0.5 for ties")
    func auc() {
        let labels = [false, false, true, true]
        #expect(ClassifierMetrics.rocAUC(scores: [0.1, 0.2, 0.8, 0.9], labels: labels) == 1)
        #expect(ClassifierMetrics.rocAUC(scores: [0.9, 0.8, 0.2, 0.1], labels: labels) == 0)
        #expect(ClassifierMetrics.rocAUC(scores: [0.5, 0.5, 0.5, 0.5], labels: labels) == 0.5)
        #expect(ClassifierMetrics.rocAUC(scores: [0.1, 0.7, 0.6, 0.9], labels: labels) == 0.75)
    }

    @Test("Brier score, accuracy and reliability bins")
    func calibration() {
        let metrics = ClassifierMetrics(probabilities: [0.05, 0.05, 0.95, 0.95, 0.55], labels: [false, false, true, true, false])
        #expect(abs(metrics.brierScore - (4 * 0.0025 + 0.3025) / 5) < 1e-12)
        #expect(metrics.accuracy() == 0.8)
        let bins = metrics.reliability()
        #expect(bins.map(\.count) == [2, 1, 2])
        #expect(bins.last!.observedRate == 1 && bins.first!.observedRate == 0)
    }
}
