/// `--shard K/N`: which share of a collection one of N machines analyses.
///
/// The inputs, in walk order (see ``ImageFileWalker``), are cut into N contiguous runs whose
/// sizes differ by at most one; shard K (1-based) takes run K: positions
/// `(K-1)·total/N ..< K·total/N`, rounded down, of the `total` inputs. Since each shard's rows are
/// then a contiguous stretch of the unsharded output, the shards' outputs concatenated in shard
/// order, keeping only the first CSV header, are exactly the unsharded output. Every shard must
/// see the same files (the same tree, the same paths in the same order), since the cut depends on
/// `total`.
///
/// ```swift
/// CollectionShard(argument: "2/4")?.positions(inCollectionOf: 10)   // 2..<5
/// ```
struct CollectionShard: Equatable, Sendable, CustomStringConvertible {
    /// K, from 1 to ``count``.
    let number: Int
    /// N, at least 1.
    let count: Int

    /// Parses `K/N`, two whole numbers with `1 <= K <= N`; `nil` otherwise.
    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let number = Int(parts[0]), let count = Int(parts[1]), number >= 1, number <= count
        else { return nil }
        self.number = number
        self.count = count
    }

    var description: String { "\(number)/\(count)" }

    /// This shard's positions among `total` inputs in walk order.
    func positions(inCollectionOf total: Int) -> Range<Int> {
        boundary(number - 1, total: total)..<boundary(number, total: total)
    }

    /// `k·total/N` rounded down, without overflow however large N is.
    private func boundary(_ k: Int, total: Int) -> Int {
        let product = k.multipliedFullWidth(by: total)
        return count.dividingFullWidth((product.high, product.low)).quotient
    }
}
