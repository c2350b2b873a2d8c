import Dispatch
import Synchronization

/// The graph ``FaceClustering`` runs chinese whispers on: each face is joined to its `neighbours`
/// nearest other faces among those closer than `threshold` (and to itself, as dlib's own face
/// clustering does, which keeps a face's label from being outvoted by a single neighbour).
///
/// Built by brute force, without an all-pairs matrix: the descriptors are compared a tile at a
/// time (256 x 4096 squared distances from one BLAS product, 4 MB), each row keeping
/// only its `neighbours` best, so memory grows with the number of faces, not its square. Tiles of
/// rows run in parallel on every core, each tile's product on one BLAS thread: the graph sets
/// OpenBLAS to one thread per product (``BLASThreads``, for the whole process, as a
/// re-identifying ``FaceTracker`` does), because OpenBLAS's own threads on top of these doubled
/// the time on 2 cores (docs/benchmarks.md). The edge list is symmetric by union (an edge when either
/// face is among the other's nearest), without repeats, sorted by (a, b) with a <= b; every edge
/// weighs 1.
@_spi(Evaluation) public struct NearestNeighbourGraph: Sendable {
    /// Faces compared per tile: 256 rows against 4096 columns.
    static let defaultTile = (rows: 256, columns: 4096)

    public let nodeCount: Int
    public private(set) var edges: [GraphEdge]

    /// Drops the edges `shouldRemove` picks (``FaceClustering``'s faces that cannot be one person).
    public mutating func removeEdges(where shouldRemove: (GraphEdge) -> Bool) {
        edges.removeAll(where: shouldRemove)
    }

    /// - Parameters:
    ///   - descriptors: `count` rows of `dimension` floats, row-major.
    ///   - neighbours: how many nearest faces each face keeps (at least 1).
    ///   - threshold: the Euclidean distance under which two faces may be joined.
    public init(
        descriptors: [Float], dimension: Int, neighbours: Int, threshold: Double
    ) throws(FaceKitError) {
        try self.init(
            descriptors: descriptors, dimension: dimension, neighbours: neighbours, threshold: threshold,
            tile: Self.defaultTile)
    }

    /// The same with tiles of another size (tests use small ones).
    init(
        descriptors: [Float], dimension: Int, neighbours: Int, threshold: Double, tile: (rows: Int, columns: Int)
    ) throws(FaceKitError) {
        precondition(dimension >= 1 && descriptors.count % dimension == 0, "descriptors must be whole rows")
        precondition(neighbours >= 1, "neighbours must be at least 1")
        let count = descriptors.count / dimension
        nodeCount = count
        guard count > 0 else {
            edges = []
            return
        }
        let found = try Self.nearest(
            descriptors, count: count, dimension: dimension, neighbours: neighbours,
            squaredThreshold: Float(threshold * threshold), tile: tile)
        edges = Self.symmetricEdges(found, count: count, neighbours: neighbours)
    }

    /// Each row's nearest others under the threshold: `neighbours` slots per row, nearest first,
    /// -1 in the unused ones.
    private static func nearest(
        _ descriptors: [Float], count: Int, dimension: Int, neighbours k: Int, squaredThreshold: Float,
        tile: (rows: Int, columns: Int)
    ) throws(FaceKitError) -> [Int32] {
        let (rowTile, columnTile) = tile
        var indices = [Int32](repeating: -1, count: count * k)
        var distances = [Float](repeating: .infinity, count: count * k)
        let failure = Mutex<FaceKitError?>(nil)
        let rowTiles = (count + rowTile - 1) / rowTile
        BLASThreads.set(1)
        descriptors.withUnsafeBufferPointer { rows in
            indices.withUnsafeMutableBufferPointer { indices in
                distances.withUnsafeMutableBufferPointer { distances in
                    // Tiles read the descriptors and write disjoint slots of indices and distances.
                    nonisolated(unsafe) let rows = rows
                    nonisolated(unsafe) let indices = indices
                    nonisolated(unsafe) let distances = distances
                    DispatchQueue.concurrentPerform(iterations: rowTiles) { tileIndex in
                        let firstRow = tileIndex * rowTile
                        let rowCount = min(rowTile, count - firstRow)
                        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: rowTile * columnTile)
                        defer { scratch.deallocate() }
                        var firstColumn = 0
                        while firstColumn < count {
                            let columnCount = min(columnTile, count - firstColumn)
                            do throws(FaceKitError) {
                                try SquaredDistances.compute(
                                    rows.baseAddress! + firstRow * dimension, count: rowCount,
                                    rows.baseAddress! + firstColumn * dimension, count: columnCount,
                                    dimension: dimension, into: scratch)
                            } catch {
                                failure.withLock { $0 = $0 ?? error }
                                return
                            }
                            for offset in 0..<rowCount {
                                keepNearest(
                                    row: firstRow + offset, of: scratch + offset * columnCount, firstColumn: firstColumn,
                                    columnCount: columnCount, k: k, squaredThreshold: squaredThreshold,
                                    indices: indices.baseAddress! + (firstRow + offset) * k,
                                    distances: distances.baseAddress! + (firstRow + offset) * k)
                            }
                            firstColumn += columnCount
                        }
                    }
                }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return indices
    }

    /// Merges one row of a tile into that row's `k` nearest so far (kept sorted, nearest first;
    /// among equal distances the earlier column stays ahead).
    @inline(__always)
    private static func keepNearest(
        row: Int, of tileRow: UnsafeMutablePointer<Float>, firstColumn: Int, columnCount: Int, k: Int,
        squaredThreshold: Float, indices: UnsafeMutablePointer<Int32>, distances: UnsafeMutablePointer<Float>
    ) {
        var filled = 0
        while filled < k && indices[filled] >= 0 { filled += 1 }
        var worst = filled == k ? distances[k - 1] : squaredThreshold
        for column in 0..<columnCount {
            let distance = tileRow[column]
            guard distance < worst, firstColumn + column != row else { continue }
            if filled < k { filled += 1 }
            var slot = filled - 1
            while slot > 0 && distances[slot - 1] > distance {
                distances[slot] = distances[slot - 1]
                indices[slot] = indices[slot - 1]
                slot -= 1
            }
            distances[slot] = distance
            indices[slot] = Int32(firstColumn + column)
            if filled == k { worst = distances[k - 1] }
        }
    }

    /// Every node's self edge and an edge for each of its nearest, each pair once.
    private static func symmetricEdges(_ nearest: [Int32], count: Int, neighbours k: Int) -> [GraphEdge] {
        var keys: [UInt64] = []
        keys.reserveCapacity(count * (k + 1))
        for node in 0..<count {
            keys.append(UInt64(node) << 32 | UInt64(node))
            for slot in 0..<k {
                let other = Int(nearest[node * k + slot])
                guard other >= 0 else { break }
                keys.append(UInt64(min(node, other)) << 32 | UInt64(max(node, other)))
            }
        }
        keys.sort()
        var edges: [GraphEdge] = []
        edges.reserveCapacity(keys.count)
        var previous: UInt64?
        for key in keys where key != previous {
            edges.append(GraphEdge(a: Int32(key >> 32), b: Int32(truncatingIfNeeded: key & 0xFFFF_FFFF), weight: 1))
            previous = key
        }
        return edges
    }
}
