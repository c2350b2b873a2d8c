internal import CFaceKit

/// dlib's `chinese_whispers` graph clustering (`fk_chinese_whispers`): each node repeatedly takes
/// the label that the greatest edge weight among its neighbours carries. Deterministic: the same
/// graph always gives the same clusters.
enum ChineseWhispers {
    /// The cluster of each of the `nodeCount` nodes (0 to count - 1, in order of first node) and
    /// the number of clusters. A node without edges is a cluster of its own.
    static func cluster(
        nodeCount: Int, edges: [GraphEdge], iterations: Int
    ) throws(FaceKitError) -> (labels: [Int32], count: Int) {
        let native = edges.map { fk_graph_edge(a: $0.a, b: $0.b, weight: $0.weight) }
        var labels = [Int32](repeating: 0, count: nodeCount)
        var count: Int32 = 0
        try native.withUnsafeBufferPointer { (edgeBuffer) throws(FaceKitError) in
            try labels.withUnsafeMutableBufferPointer { (labelBuffer) throws(FaceKitError) in
                try callNative(subject: "face clustering") {
                    fk_chinese_whispers(
                        edgeBuffer.baseAddress, Int64(edgeBuffer.count), Int32(nodeCount), Int32(iterations),
                        labelBuffer.baseAddress, &count, $0)
                }
            }
        }
        return (labels, Int(count))
    }
}
