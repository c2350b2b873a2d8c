import FaceKitDatasets
import Testing

@Suite("ClusteringScore")
struct ClusteringScoreTests {
    @Test("the pairs and BCubed figures of a small example, counted by hand")
    func handCounted() {
        // Identities a a a b b; found {0: a a}, {1: a b b}.
        let score = ClusteringScore(found: [0, 0, 1, 1, 1], truth: ["a", "a", "a", "b", "b"])
        // Pairs put together: 1 + 3 = 4, of which one identity: 1 (a a) + 1 (b b) = 2.
        // Pairs of one identity: 3 (a) + 1 (b) = 4, of which together: 2.
        #expect(score.pairwisePrecision == 0.5 && score.pairwiseRecall == 0.5)
        // BCubed precision: a, a in {0}: 1 each; a in {1}: 1/3; b, b in {1}: 2/3 each -> 11/3 / 5.
        #expect(abs(score.bcubedPrecision - 11.0 / 15) < 1e-12)
        // BCubed recall: a, a: 2/3 each; a alone: 1/3; b, b: 1 each -> 11/3 / 5.
        #expect(abs(score.bcubedRecall - 11.0 / 15) < 1e-12)
        #expect(score.items == 5 && score.clusters == 2 && score.identities == 2)
    }

    @Test("a perfect clustering scores 1 everywhere; everyone together has full recall only")
    func extremes() {
        let truth = [3, 1, 3, 2, 1, 3]
        let perfect = ClusteringScore(found: truth.map { $0 * 10 }, truth: truth)
        #expect(perfect.pairwiseF == 1 && perfect.bcubedF == 1)
        let together = ClusteringScore(found: [Int](repeating: 0, count: 6), truth: truth)
        #expect(together.pairwiseRecall == 1 && together.bcubedRecall == 1)
        #expect(together.pairwisePrecision == 4.0 / 15 && together.bcubedPrecision < 0.5)
        let alone = ClusteringScore(found: Array(0..<6), truth: truth)
        #expect(alone.pairwisePrecision == 1 && alone.bcubedPrecision == 1 && alone.pairwiseRecall == 0)
    }
}
