import FaceKit
import FaceKitArguments

/// One row of `people.csv`: a person found by `facekit group`, with how many faces, photos and
/// videos they are in, and their best shot (the face of highest quality; the first of equals).
struct PersonSummary: Equatable {
    var id: Int
    /// With `--known`: the known name most of the person's faces were given (the nearest on
    /// average among names given as often); `nil` when none was.
    var name: String?
    var faces: Int
    var photos: Int
    var videos: Int
    /// The index of the best shot among the grouped faces.
    var best: Int

    static let header = [
        "person_id", "name", "faces", "photos", "videos", "best_source", "best_frame", "best_x", "best_y",
        "best_width", "best_height", "best_quality",
    ]

    /// One summary per person 0 to `count` - 1, from each face's person (`nil`: not grouped).
    static func summaries(of faces: [GroupedFace], people: [Int?], count: Int) -> [PersonSummary] {
        var members = [[Int]](repeating: [], count: count)
        for (index, person) in people.enumerated() {
            if let person { members[person].append(index) }
        }
        return members.enumerated().map { id, indices in
            let best = indices.max { a, b in
                faces[a].record.face.quality < faces[b].record.face.quality
                    || (faces[a].record.face.quality == faces[b].record.face.quality && a > b)
            }!
            let photos = Set(indices.filter { !faces[$0].isVideo }.map { faces[$0].record.source }).count
            let videos = Set(indices.filter { faces[$0].isVideo }.map { faces[$0].record.source }).count
            return PersonSummary(
                id: id, name: name(of: indices.compactMap { faces[$0].record.person }), faces: indices.count,
                photos: photos, videos: videos, best: best)
        }
    }

    /// The name given most often among `matches`, the nearest on average among equals.
    static func name(of matches: [KnownPeople.Match]) -> String? {
        var given: [String: (count: Int, distance: Double)] = [:]
        for match in matches {
            guard let name = match.name else { continue }
            given[name, default: (0, 0)].count += 1
            given[name, default: (0, 0)].distance += match.distance
        }
        let ranked = given.map { (name: $0.key, count: $0.value.count, mean: $0.value.distance / Double($0.value.count)) }
            .sorted { ($0.count, -$0.mean, $1.name) > ($1.count, -$1.mean, $0.name) }
        return ranked.first?.name
    }

    /// The row's cells, unquoted.
    func cells(faces grouped: [GroupedFace]) -> [String] {
        let shot = grouped[best].record
        let box = shot.face.frame
        func coordinate(_ value: Double) -> String { NumberFormat.coordinate(value) ?? "" }
        return [
            String(id), name ?? "", String(faces), String(photos), String(videos), FilePathEncoding.text(shot.source),
            shot.frame.map(String.init) ?? "", coordinate(Double(box.minX)), coordinate(Double(box.minY)),
            coordinate(Double(box.width)), coordinate(Double(box.height)),
            NumberFormat.probability(shot.face.quality) ?? "",
        ]
    }
}
