import FaceKit
import Testing
import FaceKitTestSupport

@testable import FaceKitDatasets

@Suite("OptimalAssignment")
struct OptimalAssignmentTests {
    static func total(_ weights: [[Double]], _ pairs: [(row: Int, column: Int)]) -> Double {
        pairs.reduce(0) { $0 + weights[$1.row][$1.column] }
    }

    /// The heaviest total of any one-to-one pairing, by trying every one.
    static func bruteForceBest(_ weights: [[Double]]) -> Double {
        func best(row: Int, used: Set<Int>) -> Double {
            guard row < weights.count else { return 0 }
            var result = best(row: row + 1, used: used)  // the row left unpaired
            for column in weights[row].indices where !used.contains(column) {
                result = max(result, weights[row][column] + best(row: row + 1, used: used.union([column])))
            }
            return result
        }
        return best(row: 0, used: [])
    }

    @Test("takes the two pairs that outweigh the heaviest one, where greedy matching stops at the heaviest")
    func beatsGreedy() {
        let weights: [[Double]] = [[3, 2], [2, 0]]
        let pairs = OptimalAssignment.pairs(weights: weights)
        #expect(pairs.map { [$0.row, $0.column] } == [[0, 1], [1, 0]])
        #expect(Self.total(weights, GreedyAssignment.pairs(scores: weights, minimum: 1)) == 3)
    }

    @Test(
        "wide, tall, empty and non-positive matrices",
        arguments: [
            ([[1, 5, 2]], [[0, 1]]),
            ([[1], [5], [2]], [[1, 0]]),
            ([[7, 0], [0, 0]], [[0, 0]]),
            ([[-1, 0], [0, -2]], []),
            ([], []),
            ([[], []], []),
        ] as [([[Double]], [[Int]])])
    func shapes(weights: [[Double]], expected: [[Int]]) {
        #expect(OptimalAssignment.pairs(weights: weights).map { [$0.row, $0.column] } == expected)
    }

    @Test("finds the heaviest pairing of every small matrix, each row and column at most once")
    func matchesBruteForce() {
        var generator = SplitMix(seed: 7)
        for _ in 0..<300 {
            let rows = Int.random(in: 1...5, using: &generator)
            let columns = Int.random(in: 1...5, using: &generator)
            // Small integers, so that ties are common, some of them negative.
            let weights = (0..<rows).map { _ in (0..<columns).map { _ in Double(Int.random(in: -2...6, using: &generator)) } }
            let pairs = OptimalAssignment.pairs(weights: weights)
            #expect(Set(pairs.map(\.row)).count == pairs.count && Set(pairs.map(\.column)).count == pairs.count)
            #expect(pairs.allSatisfy { weights[$0.row][$0.column] > 0 })
            #expect(Self.total(weights, pairs) == Self.bruteForceBest(weights), "\(weights)")
        }
    }
}
