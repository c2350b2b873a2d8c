/// Groups faces into people by their descriptors (dlib's 128-number face descriptor): a graph
/// joins each face to its nearest others closer than ``threshold`` (`NearestNeighbourGraph`, no
/// all-pairs matrix, so 100,000 faces fit in a few hundred MB), and dlib's chinese whispers
/// clustering splits the graph into people. The same descriptors always give the same people.
///
/// ```swift
/// let people = try FaceClustering().cluster(descriptors)   // descriptors: [[Float]], 128 each
/// people.labels[0]   // the person of the first face; person 0 has the most faces
/// ```
public struct FaceClustering: Equatable, Sendable {
    /// The distance chosen leave-one-set-out on the development sets (docs/accuracy.md, "People
    /// by kind"): at 0.55 strangers merged, four East Asian portraits into one person.
    public static let defaultThreshold = 0.50

    /// Two faces may be one person only when their descriptors are closer than this (Euclidean).
    /// dlib's descriptor puts photos of one person closer than about 0.6.
    public var threshold: Double
    /// How many nearest faces each face is joined to (at most). More keeps large groups of one
    /// person better connected, at more memory and time per face.
    public var neighbours: Int
    /// Chinese whispers' passes over the faces.
    public var iterations: Int

    public init(threshold: Double = FaceClustering.defaultThreshold, neighbours: Int = 20, iterations: Int = 100) {
        self.threshold = threshold
        self.neighbours = neighbours
        self.iterations = iterations
    }

    /// Refuses a threshold that is not positive and finite, and neighbours or iterations below 1.
    public func validate() throws(FaceKitError) {
        guard threshold.isFinite && threshold > 0 else {
            throw .invalidOption(name: "threshold", reason: "must be a positive distance, not \(threshold)")
        }
        guard neighbours >= 1 else {
            throw .invalidOption(name: "neighbours", reason: "must be at least 1, not \(neighbours)")
        }
        guard iterations >= 1 else {
            throw .invalidOption(name: "iterations", reason: "must be at least 1, not \(iterations)")
        }
    }

    /// Says whether two faces (their indices, the first the smaller) cannot be one person, such
    /// as two faces of one photo: they are never joined directly (chinese whispers may still put
    /// them together through others, which takes more faces to happen).
    public typealias Apart = (Int, Int) -> Bool

    /// The people among the faces whose descriptors are given (all of one length).
    public func cluster(_ descriptors: [[Float]], apart: Apart? = nil) throws(FaceKitError) -> People {
        let dimension = descriptors.first?.count ?? 1
        guard descriptors.allSatisfy({ $0.count == dimension }), dimension >= 1 else {
            throw .invalidOption(name: "descriptors", reason: "must all have the same, non-zero length")
        }
        var flat: [Float] = []
        flat.reserveCapacity(descriptors.count * dimension)
        for descriptor in descriptors { flat.append(contentsOf: descriptor) }
        return try cluster(flat: flat, dimension: dimension, apart: apart)
    }

    /// The people among faces given as one row-major array of `dimension` floats per face, the
    /// cheapest form for many faces.
    public func cluster(flat descriptors: [Float], dimension: Int, apart: Apart? = nil) throws(FaceKitError) -> People {
        try validate()
        guard dimension >= 1 && descriptors.count % dimension == 0 else {
            throw .invalidOption(name: "descriptors", reason: "\(descriptors.count) values are not whole rows of \(dimension)")
        }
        guard descriptors.allSatisfy(\.isFinite) else {
            throw .invalidOption(name: "descriptors", reason: "must be finite numbers")
        }
        var graph = try NearestNeighbourGraph(
            descriptors: descriptors, dimension: dimension, neighbours: neighbours, threshold: threshold)
        if let apart { graph.removeEdges { $0.a != $0.b && apart(Int($0.a), Int($0.b)) } }
        return try people(in: graph)
    }

    /// The people chinese whispers finds in `graph` (made with this clustering's threshold and
    /// neighbours): the second half of ``cluster(flat:dimension:)``, apart for timing it.
    package func people(in graph: NearestNeighbourGraph) throws(FaceKitError) -> People {
        try validate()
        let found = try ChineseWhispers.cluster(nodeCount: graph.nodeCount, edges: graph.edges, iterations: iterations)
        return People(clusters: found.labels, count: found.count, edgeCount: graph.edges.count)
    }

    /// The outcome: a person for each face, people numbered by decreasing number of faces.
    public struct People: Equatable, Sendable {
        /// The person of each face, in the order the faces were given: 0 is the person with the
        /// most faces; among people with as many faces, the one whose first face came first.
        public let labels: [Int]
        /// The number of people (singletons included).
        public let count: Int
        /// The number of edges of the graph that was clustered, self edges included.
        public let edgeCount: Int

        init(clusters: [Int32], count: Int, edgeCount: Int) {
            var sizes = [Int](repeating: 0, count: count)
            for cluster in clusters { sizes[Int(cluster)] += 1 }
            // Clusters come numbered in order of first face, so a stable sort by size breaks ties by it.
            let order = (0..<count).sorted { sizes[$0] > sizes[$1] || (sizes[$0] == sizes[$1] && $0 < $1) }
            var rank = [Int](repeating: 0, count: count)
            for (position, cluster) in order.enumerated() { rank[cluster] = position }
            labels = clusters.map { rank[Int($0)] }
            self.count = count
            self.edgeCount = edgeCount
        }

        /// The faces (indices) of each person, person 0 first.
        public var members: [[Int]] {
            var members = [[Int]](repeating: [], count: count)
            for (face, person) in labels.enumerated() { members[person].append(face) }
            return members
        }
    }
}
