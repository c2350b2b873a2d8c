import FaceKit

/// The step after clustering that joins a person seen only in video to a person of the photos.
///
/// Clustering joins single faces at ``FaceClustering/defaultThreshold`` (0.50), but a video
/// face is further from a portrait than two portraits are (stage light, motion, a head turned),
/// so the tracks of a theatre clip lie 0.54-0.66 from their own photos. Here the evidence of
/// several faces is compared instead: a video-only person's descriptor (the mean of its tracks',
/// each already the mean of its best shots) against each photo person's mean over their photo
/// faces. The video person joins the nearest photo person when that distance is below
/// ``threshold`` and the ``condition`` holds; tracks on screen together with one already in
/// that person never join it (``GroupedFace/isApart(from:)``), and the nearest joins are taken
/// first. The threshold and condition were chosen leave-one-set-out on development data
/// (docs/accuracy.md, "People by kind").
///
/// ```swift
/// // Obama's track 0.572 from his photos' mean, nearer than any other photo person: joined.
/// let joined = VideoPersonJoining().join(faces, people: labels, count: 12)
/// ```
struct VideoPersonJoining: Equatable {
    /// What must hold, beside the distance, for a video person to join their nearest photo person.
    enum Condition: Equatable, CustomStringConvertible {
        /// The nearest photo person is enough.
        case nearest
        /// No other photo person is below the threshold.
        case uniquelyBelow
        /// The second nearest photo person is at least this much further.
        case margin(Double)

        var description: String {
            switch self {
            case .nearest: "nearest"
            case .uniquelyBelow: "nearest, uniquely below"
            case .margin(let margin): "nearest by \(margin)"
            }
        }
    }

    /// Chosen leave-one-set-out: Obama's track joins his photos at 0.572, Michelle Obama's stays
    /// off a child's photo at 0.589. "Uniquely below" kept tracks from their own photos once a
    /// collection held strangers as near (0.577 for Obama's).
    static let defaultThreshold = 0.58
    static let defaultCondition = Condition.nearest

    var threshold = Self.defaultThreshold
    var condition = Self.defaultCondition

    /// A person's faces, and what the step compares: the mean of their photo faces' descriptors
    /// (photo people) or of all their descriptors (video-only people).
    private struct Person {
        var members: [Int] = []
        var hasPhoto = false
        var descriptor: FaceDescriptor?
    }

    /// Each face's person after the joins, numbered 0 to `count` - 1 again as clustering numbers
    /// them (``FaceClustering/People``: by decreasing number of faces, among equals the one whose
    /// first face comes first). With no join (photos alone, videos alone, nobody near) `people`
    /// comes back as it was.
    func join(_ faces: [GroupedFace], people: [Int?], count: Int) -> (people: [Int?], count: Int) {
        var persons = [Person](repeating: Person(), count: count)
        for (index, person) in people.enumerated() {
            guard let person else { continue }
            persons[person].members.append(index)
            if !faces[index].isVideo { persons[person].hasPhoto = true }
        }
        for id in persons.indices {
            let person = persons[id]
            let counted = person.members.filter { !person.hasPhoto || !faces[$0].isVideo }
            let descriptors = counted.compactMap { faces[$0].record.face.descriptor }
            persons[id].descriptor = descriptors.isEmpty ? nil : FaceDescriptor.mean(of: descriptors)
        }
        let photoPeople = persons.indices.filter { persons[$0].hasPhoto && persons[$0].descriptor != nil }
        var candidates: [(video: Int, photo: Int, distance: Double)] = []
        for video in persons.indices where !persons[video].hasPhoto {
            guard let descriptor = persons[video].descriptor else { continue }
            let ranked = photoPeople.map { (id: $0, distance: descriptor.distance(to: persons[$0].descriptor!)) }
                .sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
            guard let nearest = ranked.first, nearest.distance < threshold else { continue }
            let second = ranked.count > 1 ? ranked[1].distance : .infinity
            guard holds(nearest: nearest.distance, second: second) else { continue }
            candidates.append((video, nearest.id, nearest.distance))
        }
        var target = Array(persons.indices)
        for candidate in candidates.sorted(by: { ($0.distance, $0.video) < ($1.distance, $1.video) }) {
            let apart = persons[candidate.video].members.contains { track in
                persons[candidate.photo].members.contains { faces[track].isApart(from: faces[$0]) }
            }
            guard !apart else { continue }
            persons[candidate.photo].members += persons[candidate.video].members
            target[candidate.video] = candidate.photo
        }
        let kept = persons.indices.filter { target[$0] == $0 }
        guard kept.count < count else { return (people, count) }
        // Numbered as clustering numbers people: by decreasing number of faces, then first face.
        let order = kept.sorted { a, b in
            (persons[a].members.count, -persons[a].members.min()!) > (persons[b].members.count, -persons[b].members.min()!)
        }
        var number = [Int](repeating: 0, count: count)
        for (position, id) in order.enumerated() { number[id] = position }
        return (people.map { $0.map { number[target[$0]] } }, kept.count)
    }

    /// Whether ``condition`` lets the nearest photo person, at `nearest`, be joined.
    private func holds(nearest: Double, second: Double) -> Bool {
        switch condition {
        case .nearest: true
        case .uniquelyBelow: second >= threshold
        case .margin(let margin): second - nearest >= margin
        }
    }
}
