import CFaceKit
import Testing

/// fk_squared_distances and fk_chinese_whispers called directly, on inputs whose answers are known.
@Suite("CFaceKit: descriptor distances and chinese whispers")
struct ClusteringCallTests {
    @Test("squared distances between every pair of rows, as the definition gives them")
    func squaredDistances() {
        let a: [Float] = [0, 0, 0, 3, 4, 0]         // two rows of 3
        let b: [Float] = [0, 0, 0, 1, 1, 1, 3, 4, 0]  // three rows of 3
        var out = [Float](repeating: -1, count: 6)
        let call = NativeCall { fk_squared_distances(a, 2, b, 3, 3, &out, $0) }
        #expect(call.status == FK_OK.code && call.recordUntouched)
        #expect(out == [0, 3, 25, 25, 14, 0])
    }

    @Test("squared distances refuse empty blocks and leave out untouched")
    func squaredDistancesRefusal() {
        let a: [Float] = [1, 2]
        var out: [Float] = [-1]
        let call = NativeCall { fk_squared_distances(a, 0, a, 1, 2, &out, $0) }
        #expect(call.status == FK_INVALID_ARGUMENT.code)
        #expect(call.message == "a_count, b_count and dimension must be at least 1")
        #expect(out == [-1])
    }

    @Test("two triangles joined by nothing are two clusters; nodes without edges are their own, numbered in order")
    func twoTriangles() {
        // Nodes 0, 2, 5 and 1, 3, 6 form triangles; 4 and 7 have no edges (7 is past every edge).
        let edges = [(0, 2), (2, 5), (0, 5), (1, 3), (3, 6), (1, 6)].map {
            fk_graph_edge(a: Int32($0.0), b: Int32($0.1), weight: 1)
        }
        var labels = [Int32](repeating: -1, count: 8)
        var count: Int32 = -1
        let call = NativeCall { fk_chinese_whispers(edges, Int64(edges.count), 8, 100, &labels, &count, $0) }
        #expect(call.status == FK_OK.code && call.recordUntouched)
        #expect(labels == [0, 1, 0, 1, 2, 0, 1, 3])
        #expect(count == 4)
    }

    @Test("a weak bridge between two tight groups does not merge them")
    func weakBridge() {
        var pairs: [(Int32, Int32, Float)] = []
        for group in [0, 4] as [Int32] {
            for i in 0..<4 as Range<Int32> {
                for j in (i + 1)..<4 { pairs.append((group + i, group + j, 1)) }
            }
        }
        pairs.append((3, 4, 0.1))
        let edges = pairs.map { fk_graph_edge(a: $0.0, b: $0.1, weight: $0.2) }
        var labels = [Int32](repeating: -1, count: 8)
        var count: Int32 = 0
        #expect(fk_chinese_whispers(edges, Int64(edges.count), 8, 100, &labels, &count, nil) == FK_OK.code)
        #expect(labels == [0, 0, 0, 0, 1, 1, 1, 1] && count == 2)
    }

    @Test("no nodes: no clusters; labels may be NULL")
    func empty() {
        var count: Int32 = -1
        #expect(fk_chinese_whispers(nil, 0, 0, 100, nil, &count, nil) == FK_OK.code)
        #expect(count == 0)
    }

    @Test(
        "an edge outside the nodes, a weight that is not positive, or no iterations is refused, labels untouched",
        arguments: [
            (fk_graph_edge(a: 0, b: 2, weight: 1), 10, "an edge names a node outside 0..node_count-1"),
            (fk_graph_edge(a: -1, b: 0, weight: 1), 10, "an edge names a node outside 0..node_count-1"),
            (fk_graph_edge(a: 0, b: 1, weight: 0), 10, "edge weights must be finite and positive"),
            (fk_graph_edge(a: 0, b: 1, weight: .nan), 10, "edge weights must be finite and positive"),
            (fk_graph_edge(a: 0, b: 1, weight: 1), 0, "iterations must be at least 1"),
        ] as [(fk_graph_edge, Int32, String)])
    func refusals(edge: fk_graph_edge, iterations: Int32, message: String) {
        var labels: [Int32] = [-1, -1]
        var count: Int32 = -1
        let call = NativeCall { fk_chinese_whispers([edge], 1, 2, iterations, &labels, &count, $0) }
        #expect(call.status == FK_INVALID_ARGUMENT.code && call.message == message)
        #expect(labels == [-1, -1] && count == -1)
    }
}

/// fk_image_warp on an image whose pixels are known.
@Suite("CFaceKit: image warp")
struct ImageWarpTests {
    @Test("the identity map copies a region; what falls outside the image is black; a bad size is refused")
    func warp() throws {
        // 4 x 2 grey image: columns 10, 20, 30, 40.
        let pixels: [UInt8] = [10, 20, 30, 40, 10, 20, 30, 40]
        var image: OpaquePointer?
        try #require(fk_image_create_from_pixels(pixels, 4, 2, 4, Int32(FK_PIXEL_GRAY8.rawValue), &image, nil) == FK_OK.code)
        defer { fk_image_free(image) }
        var warped: OpaquePointer?
        // Chip pixel (x, y) <- image (x + 2, y): two columns, then two outside the image.
        let call = NativeCall { fk_image_warp(image, [1, 0, 2, 0, 1, 0], 4, 1, 0, &warped, $0) }
        #expect(call.status == FK_OK.code && call.recordUntouched)
        defer { fk_image_free(warped) }
        var out = [UInt8](repeating: 7, count: 4)
        #expect(fk_image_copy_pixels(warped, Int32(FK_PIXEL_GRAY8.rawValue), &out, 4, 4, nil) == FK_OK.code)
        #expect(out == [30, 40, 0, 0])
        var untouched: OpaquePointer?
        let refused = NativeCall { fk_image_warp(image, [1, 0, 0, 0, 1, 0], 0, 1, 0, &untouched, $0) }
        #expect(refused.status == FK_INVALID_ARGUMENT.code && refused.message == "size out of range" && untouched == nil)
    }
}
