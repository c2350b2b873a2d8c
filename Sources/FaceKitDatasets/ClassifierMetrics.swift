import Foundation

/// Scores of a probabilistic classifier against 0/1 truth: ranking (ROC AUC), thresholded
/// accuracy, Brier score and a reliability table.
public struct ClassifierMetrics: Sendable {
    public var probabilities: [Double]
    public var labels: [Bool]

    public init(probabilities: [Double], labels: [Bool]) {
        precondition(probabilities.count == labels.count, "ClassifierMetrics: one label per probability")
        self.probabilities = probabilities
        self.labels = labels
    }

    /// Area under the ROC curve: the chance that a random positive scores above a random
    /// negative (ties count half). Works for any monotone score, not only probabilities.
    public static func rocAUC(scores: [Double], labels: [Bool]) -> Double {
        let order = scores.indices.sorted { scores[$0] < scores[$1] }
        var ranks = [Double](repeating: 0, count: scores.count)
        var i = 0
        while i < order.count {
            var j = i
            while j + 1 < order.count && scores[order[j + 1]] == scores[order[i]] { j += 1 }
            for k in i...j { ranks[order[k]] = Double(i + j) / 2 + 1 }
            i = j + 1
        }
        let positives = labels.filter { $0 }.count
        let negatives = labels.count - positives
        guard positives > 0, negatives > 0 else { return .nan }
        let rankSum = zip(ranks, labels).filter(\.1).reduce(0) { $0 + $1.0 }
        return (rankSum - Double(positives * (positives + 1)) / 2) / Double(positives * negatives)
    }

    public var rocAUC: Double { Self.rocAUC(scores: probabilities, labels: labels) }

    public func accuracy(threshold: Double = 0.5) -> Double {
        Double(zip(probabilities, labels).filter { ($0 >= threshold) == $1 }.count) / Double(labels.count)
    }

    /// Mean squared difference between probability and outcome (0 is perfect, 0.25 is a coin).
    public var brierScore: Double {
        zip(probabilities, labels).reduce(0) { $0 + pow($1.0 - ($1.1 ? 1 : 0), 2) } / Double(labels.count)
    }

    /// One row of a reliability table: the predictions in [lower, upper), their mean, and how
    /// often the event really happened among them.
    public struct ReliabilityBin: Sendable {
        public var lower: Double
        public var upper: Double
        public var count: Int
        public var meanPrediction: Double
        public var observedRate: Double
    }

    public func reliability(bins: Int = 10) -> [ReliabilityBin] {
        (0..<bins).compactMap { b in
            let lower = Double(b) / Double(bins)
            let upper = Double(b + 1) / Double(bins)
            let members = zip(probabilities, labels).filter { $0.0 >= lower && ($0.0 < upper || (b == bins - 1 && $0.0 <= 1)) }
            guard !members.isEmpty else { return nil }
            let n = Double(members.count)
            return ReliabilityBin(
                lower: lower, upper: upper, count: members.count,
                meanPrediction: members.reduce(0) { $0 + $1.0 } / n,
                observedRate: Double(members.filter(\.1).count) / n)
        }
    }
}
