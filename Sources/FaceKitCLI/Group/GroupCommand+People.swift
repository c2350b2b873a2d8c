import FaceKit

extension GroupCommand {
    /// Each face's person as clustering finds them (``FaceClustering`` over the faces with a
    /// descriptor, the faces that cannot be one person kept apart), and how many people there
    /// are; a face without a descriptor has none. Before ``VideoPersonJoining``.
    static func people(of faces: [GroupedFace], clustering: FaceClustering) throws -> (people: [Int?], count: Int) {
        let described = faces.indices.filter { faces[$0].record.face.descriptor != nil }
        var flat: [Float] = []
        flat.reserveCapacity(described.count * FaceDescriptor.length)
        for index in described { flat += faces[index].record.face.descriptor!.values }
        let found = try clustering.cluster(flat: flat, dimension: FaceDescriptor.length) { a, b in
            faces[described[a]].isApart(from: faces[described[b]])
        }
        var personOfFace = [Int?](repeating: nil, count: faces.count)
        for (position, index) in described.enumerated() { personOfFace[index] = found.labels[position] }
        return (personOfFace, found.count)
    }
}
