/// How well found clusters match the true identities: pairwise precision and recall (of all pairs
/// of items put together, the share that are one identity; of all pairs of one identity, the
/// share put together) and BCubed precision, recall and F (the same asked per item and averaged,
/// so a large identity does not outweigh many small ones). Counted from the contingency table,
/// without listing pairs.
public struct ClusteringScore: Equatable, Sendable {
    public let pairwisePrecision: Double
    public let pairwiseRecall: Double
    public let bcubedPrecision: Double
    public let bcubedRecall: Double
    /// Items, found clusters and true identities.
    public let items: Int
    public let clusters: Int
    public let identities: Int

    public var pairwiseF: Double { Self.harmonic(pairwisePrecision, pairwiseRecall) }
    public var bcubedF: Double { Self.harmonic(bcubedPrecision, bcubedRecall) }

    /// `found[i]` and `truth[i]` are item i's cluster and identity (any hashable labels). A
    /// precision or recall with no pairs to count (every item alone) is 1.
    public init<Found: Hashable, Truth: Hashable>(found: [Found], truth: [Truth]) {
        precondition(found.count == truth.count, "one cluster and one identity per item")
        var both: [Pair<Found, Truth>: Int] = [:]
        var clusterSizes: [Found: Int] = [:]
        var identitySizes: [Truth: Int] = [:]
        for (cluster, identity) in zip(found, truth) {
            both[Pair(cluster: cluster, identity: identity), default: 0] += 1
            clusterSizes[cluster, default: 0] += 1
            identitySizes[identity, default: 0] += 1
        }
        func pairs(_ n: Int) -> Double { Double(n) * Double(n - 1) / 2 }
        let together = clusterSizes.values.map(pairs).reduce(0, +)
        let same = identitySizes.values.map(pairs).reduce(0, +)
        let correct = both.values.map(pairs).reduce(0, +)
        pairwisePrecision = together == 0 ? 1 : correct / together
        pairwiseRecall = same == 0 ? 1 : correct / same
        // BCubed: an item in cell (c, t) of size n has precision n / |c| and recall n / |t|.
        var precisionSum = 0.0
        var recallSum = 0.0
        for (cell, n) in both {
            precisionSum += Double(n) * Double(n) / Double(clusterSizes[cell.cluster]!)
            recallSum += Double(n) * Double(n) / Double(identitySizes[cell.identity]!)
        }
        items = found.count
        bcubedPrecision = items == 0 ? 1 : precisionSum / Double(items)
        bcubedRecall = items == 0 ? 1 : recallSum / Double(items)
        clusters = clusterSizes.count
        identities = identitySizes.count
    }

    private struct Pair<Found: Hashable, Truth: Hashable>: Hashable {
        let cluster: Found
        let identity: Truth
    }

    private static func harmonic(_ a: Double, _ b: Double) -> Double { a + b == 0 ? 0 : 2 * a * b / (a + b) }
}
