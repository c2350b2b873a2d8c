import Dispatch
import Foundation
import Synchronization

/// The graph ``FaceClustering`` runs chinese whispers on: each face is joined to its `neighbours`
/// nearest other faces among those closer than `threshold` (and to itself, as dlib's own face
/// clustering does, which keeps a face's label from being outvoted by a single neighbour).
///
/// Built by brute force, without an all-pairs matrix: the faces are cut into blocks of 1024, and
/// each pair of blocks (each unordered pair once: a distance serves both faces) gives one tile of
/// squared distances from one BLAS product (4 MB), which updates both faces' lists of nearest
/// (``NeighbourLists``). Memory grows with the number of faces, not its square. The tiles run in
/// parallel on every core, each worker with lists of its own, merged at the end. Each tile's
/// product should run on one BLAS thread, because OpenBLAS's own threads on top of these doubled
/// the time on 2 cores (docs/benchmarks.md); that is a setting of the whole process, so the graph
/// leaves it to its caller: `facekit group` calls `BLASThreads.set(1)` before building one (or
/// before ``FaceClustering``), and a program using the library starts with
/// `OPENBLAS_NUM_THREADS=1` in its environment.
///
/// Among equal distances the face of smaller index is nearer, so the graph does not depend on how
/// the tiles fell to the workers. The edge list is symmetric by union (an edge when either face is
/// among the other's nearest), without repeats, sorted by (a, b) with a <= b; every edge weighs 1.
package struct NearestNeighbourGraph: Sendable {
    /// Faces per block: a tile is 1024 x 1024 distances.
    static let defaultBlock = 1024

    package let nodeCount: Int
    package private(set) var edges: [GraphEdge]

    /// Drops the edges `shouldRemove` picks (``FaceClustering``'s faces that cannot be one person).
    package mutating func removeEdges(where shouldRemove: (GraphEdge) -> Bool) {
        edges.removeAll(where: shouldRemove)
    }

    /// - Parameters:
    ///   - descriptors: `count` rows of `dimension` floats, row-major.
    ///   - neighbours: how many nearest faces each face keeps (at least 1).
    ///   - threshold: the Euclidean distance under which two faces may be joined.
    package init(
        descriptors: [Float], dimension: Int, neighbours: Int, threshold: Double
    ) throws(FaceKitError) {
        try self.init(
            descriptors: descriptors, dimension: dimension, neighbours: neighbours, threshold: threshold,
            block: Self.defaultBlock)
    }

    /// The same with blocks of another size (tests use small ones).
    init(
        descriptors: [Float], dimension: Int, neighbours: Int, threshold: Double, block: Int
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
            squaredThreshold: Float(threshold * threshold), block: block)
        edges = Self.symmetricEdges(found, count: count, neighbours: neighbours)
    }

    /// Each face's nearest others under the threshold.
    private static func nearest(
        _ descriptors: [Float], count: Int, dimension: Int, neighbours k: Int, squaredThreshold: Float, block: Int
    ) throws(FaceKitError) -> NeighbourLists {
        let blocks = (count + block - 1) / block
        // Every unordered pair of blocks, the diagonal included, in a fixed order.
        let pairs = (0..<blocks).flatMap { first in (first..<blocks).map { (first, $0) } }
        let workers = min(pairs.count, ProcessInfo.processInfo.activeProcessorCount)
        let next = Mutex(0)
        let failure = Mutex<FaceKitError?>(nil)
        let parts = Mutex<[Int: NeighbourLists]>([:])
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            // Each worker reads the descriptors through a pointer of its own (an array not written
            // to is not copied, so they all read the same rows).
            descriptors.withUnsafeBufferPointer { rows in
                var lists = NeighbourLists(count: count, k: k)
                let scratch = UnsafeMutablePointer<Float>.allocate(capacity: block * block)
                defer { scratch.deallocate() }
                while true {
                    let claimed = next.withLock { index in
                        defer { index += 1 }
                        return index
                    }
                    guard claimed < pairs.count, failure.withLock({ $0 == nil }) else { break }
                    let (a, b) = pairs[claimed]
                    let (firstA, firstB) = (a * block, b * block)
                    let (countA, countB) = (min(block, count - firstA), min(block, count - firstB))
                    do throws(FaceKitError) {
                        try SquaredDistances.compute(
                            rows.baseAddress! + firstA * dimension, count: countA,
                            rows.baseAddress! + firstB * dimension, count: countB, dimension: dimension,
                            into: scratch)
                    } catch {
                        failure.withLock { $0 = $0 ?? error }
                        break
                    }
                    for row in 0..<countA {
                        let face = firstA + row
                        let tileRow = scratch + row * countB
                        // On the diagonal, each pair once: the columns after the row.
                        let start = a == b ? row + 1 : 0
                        for column in start..<countB {
                            let distance = tileRow[column]
                            guard distance < squaredThreshold else { continue }
                            let other = firstB + column
                            lists.offer(Int32(other), at: distance, to: face)
                            lists.offer(Int32(face), at: distance, to: other)
                        }
                    }
                }
                parts.withLock { $0[worker] = lists }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        let collected = parts.withLock { $0 }
        return NeighbourLists.merged(collected.keys.sorted().map { collected[$0]! })
    }

    /// Every node's self edge and an edge for each of its nearest, each pair once.
    private static func symmetricEdges(_ nearest: NeighbourLists, count: Int, neighbours k: Int) -> [GraphEdge] {
        var keys: [UInt64] = []
        keys.reserveCapacity(count * (k + 1))
        for node in 0..<count {
            keys.append(UInt64(node) << 32 | UInt64(node))
            for other in nearest.neighbours(of: node).map(Int.init) {
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
