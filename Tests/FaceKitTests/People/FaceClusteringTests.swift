import FaceKitDatasets
import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKit

@Suite("FaceClustering")
struct FaceClusteringTests {
    /// The graph by definition: every pair's distance, each face's `k` nearest under the
    /// threshold (earlier index first among equal distances), union-symmetric, self edges.
    static func naiveGraph(_ set: SyntheticDescriptors, k: Int, threshold: Double) -> Set<GraphEdge> {
        var edges = Set<GraphEdge>()
        for i in 0..<set.count {
            edges.insert(GraphEdge(a: Int32(i), b: Int32(i), weight: 1))
            let a = set.descriptor(i)
            var near: [(index: Int, distance: Float)] = []
            for j in 0..<set.count where j != i {
                var distance: Float = 0
                for (x, y) in zip(a, set.descriptor(j)) { distance += (x - y) * (x - y) }
                if distance < Float(threshold * threshold) { near.append((j, distance)) }
            }
            near.sort { $0.distance < $1.distance || ($0.distance == $1.distance && $0.index < $1.index) }
            for (j, _) in near.prefix(k) {
                edges.insert(GraphEdge(a: Int32(min(i, j)), b: Int32(max(i, j)), weight: 1))
            }
        }
        return edges
    }

    @Test(
        "the tiled graph is the graph by definition, whatever the blocks and however many neighbours",
        arguments: [(3, 7), (5, 64), (300, 1024), (2, 1), (20, 149)] as [(Int, Int)])
    func tiledGraph(neighbours: Int, block: Int) throws {
        let set = SyntheticDescriptors(faces: 150, people: 12, dimension: 16, seed: 7)
        let graph = try NearestNeighbourGraph(
            descriptors: set.values, dimension: set.dimension, neighbours: neighbours, threshold: 0.6, block: block)
        let expected = Self.naiveGraph(set, k: neighbours, threshold: 0.6)
        #expect(graph.nodeCount == 150)
        #expect(Set(graph.edges) == expected)
        #expect(graph.edges.count == expected.count, "no edge twice")
        #expect(graph.edges == graph.edges.sorted { ($0.a, $0.b) < ($1.a, $1.b) } && graph.edges.allSatisfy { $0.a <= $0.b })
        // More than self edges: the threshold joins faces of one person.
        #expect(graph.edges.count > 150)
    }

    @Test("separated people are found exactly, numbered by decreasing number of faces")
    func syntheticPeople() throws {
        let set = SyntheticDescriptors(faces: 400, people: 25, seed: 3)
        let found = try FaceClustering().cluster(flat: set.values, dimension: set.dimension)
        #expect(found.count == 25)
        // The same partition: each found person is exactly one true person.
        var truth: [Int: Int] = [:]
        for (face, person) in found.labels.enumerated() {
            #expect(truth[person, default: set.people[face]] == set.people[face], "face \(face) mixed in")
            truth[person] = set.people[face]
        }
        #expect(Set(truth.values).count == 25)
        let sizes = found.members.map(\.count)
        #expect(sizes == sizes.sorted(by: >) && sizes.reduce(0, +) == 400)
        #expect(try FaceClustering().cluster((0..<set.count).map(set.descriptor)) == found, "both entry points agree")
    }

    @Test("among people with as many faces, the one seen first comes first; a lone face is its own person")
    func numbering() throws {
        let set = SyntheticDescriptors(faces: 3, people: 3, dimension: 128, seed: 5)
        // Faces: A, B, A', B'', B', C, with B three times, A twice: B is 0, A is 1, C is 2.
        let a = set.descriptor(0), b = set.descriptor(1), c = set.descriptor(2)
        let found = try FaceClustering().cluster([a, b, a, b, b, c])
        #expect(found.labels == [1, 0, 1, 0, 0, 2])
        #expect(found.members == [[1, 3, 4], [0, 2], [5]])
    }

    @Test("faces that cannot be one person are not joined directly; a face alone stays its own person")
    func apart() throws {
        let set = SyntheticDescriptors(faces: 2, people: 2, seed: 9)
        let a = set.descriptor(0), b = set.descriptor(1)
        let nudged = a.map { $0 + 0.001 }
        // Two faces of one photo, nearly the same descriptor: two people when kept apart.
        #expect(try FaceClustering().cluster([a, nudged]).count == 1)
        #expect(try FaceClustering().cluster([a, nudged]) { _, _ in true }.labels == [0, 1])
        // Only the pair (0, 3) is apart: with 1 and 2 joined to both, the four are still one person.
        let bridged = try FaceClustering().cluster([a, a, a, nudged, b]) { $0 == 0 && $1 == 3 }
        #expect(bridged.labels == [0, 0, 0, 0, 1])
    }

    @Test("no faces, no people")
    func empty() throws {
        let found = try FaceClustering().cluster([])
        #expect(found.labels.isEmpty && found.count == 0 && found.edgeCount == 0)
    }

    @Test("a threshold that is not positive, no neighbours, rows of different lengths and NaN are refused")
    func refusals() {
        #expect(throws: FaceKitError.self) { try FaceClustering(threshold: 0).cluster([[1, 2]]) }
        #expect(throws: FaceKitError.self) { try FaceClustering(threshold: .infinity).cluster([[1, 2]]) }
        #expect(throws: FaceKitError.self) { try FaceClustering(neighbours: 0).cluster([[1, 2]]) }
        #expect(throws: FaceKitError.self) { try FaceClustering(iterations: 0).cluster([[1, 2]]) }
        #expect(throws: FaceKitError.self) { try FaceClustering().cluster([[1, 2], [1]]) }
        #expect(throws: FaceKitError.self) { try FaceClustering().cluster([[1, .nan]]) }
        #expect(throws: FaceKitError.self) { try FaceClustering().cluster(flat: [1, 2, 3], dimension: 2) }
    }

    @Test(
        "the development identities' training photos: one person per folder",
        .needsModels, .needsSharedData)
    func developmentIdentities() throws {
        let folder = TestData.shared("photos/identities/train")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        var options = FaceDetectorOptions()
        options.landmarkMode = .all
        let models = ModelLocator(directory: TestData.models)
        let detector = try FaceDetector(options: options, models: models)
        let network = try NativeFaceDescriptor(modelPath: models.path(for: .faceDescriptor))
        var descriptors: [[Float]] = []
        var identities: [String] = []
        for name in names {
            for file in try FileManager.default.contentsOfDirectory(atPath: folder + "/" + name).sorted() {
                let image = try FaceImage(contentsOfFile: folder + "/" + name + "/" + file)
                // The largest face: these are portraits.
                let faces = try detector.analyse(image)
                let face = try #require(faces.max { $0.face.frame.width < $1.face.frame.width }, "\(name)/\(file)")
                descriptors.append(try network.descriptor(in: image, shape: face.shape))
                identities.append(name)
            }
        }
        #expect(Set(identities).count == 5 && descriptors.count == 9)
        let found = try FaceClustering().cluster(descriptors)
        #expect(found.count == 5, "\(found.labels) for \(identities)")
        for i in identities.indices {
            for j in identities.indices {
                #expect((found.labels[i] == found.labels[j]) == (identities[i] == identities[j]), "\(identities[i]) \(identities[j])")
            }
        }
    }
}
