/// Each face's nearest faces seen so far, at most `k` each, ordered by (squared distance, index):
/// a total order, so that lists kept by several workers over different pairs merge into the same
/// lists whatever share each worker had (``NearestNeighbourGraph``).
struct NeighbourLists {
    let k: Int
    private(set) var counts: [Int32]
    private(set) var distances: [Float]
    private(set) var indices: [Int32]

    init(count: Int, k: Int) {
        self.k = k
        counts = [Int32](repeating: 0, count: count)
        distances = [Float](repeating: .infinity, count: count * k)
        indices = [Int32](repeating: -1, count: count * k)
    }

    /// Offers `other` at squared distance `distance` to `face`'s list; kept when among its `k` best.
    @inline(__always)
    mutating func offer(_ other: Int32, at distance: Float, to face: Int) {
        let base = face * k
        let count = Int(counts[face])
        if count == k {
            let worst = distances[base + k - 1]
            guard distance < worst || (distance == worst && other < indices[base + k - 1]) else { return }
        } else {
            counts[face] = Int32(count + 1)
        }
        var slot = min(count, k - 1)
        while slot > 0 {
            let previous = distances[base + slot - 1]
            guard previous > distance || (previous == distance && indices[base + slot - 1] > other) else { break }
            distances[base + slot] = previous
            indices[base + slot] = indices[base + slot - 1]
            slot -= 1
        }
        distances[base + slot] = distance
        indices[base + slot] = other
    }

    /// `face`'s list, nearest first.
    func neighbours(of face: Int) -> ArraySlice<Int32> {
        indices[(face * k)..<(face * k + Int(counts[face]))]
    }

    /// The lists of several workers made one: each face's `k` best of all.
    static func merged(_ parts: [NeighbourLists]) -> NeighbourLists {
        guard var merged = parts.first else { preconditionFailure("no lists to merge") }
        for part in parts.dropFirst() {
            for face in 0..<part.counts.count {
                let base = face * part.k
                for slot in 0..<Int(part.counts[face]) {
                    merged.offer(part.indices[base + slot], at: part.distances[base + slot], to: face)
                }
            }
        }
        return merged
    }
}
