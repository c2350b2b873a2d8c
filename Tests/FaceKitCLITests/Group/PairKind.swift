@testable import FaceKitCLI

/// What a pair of faces is, for counting `group`'s joins by kind: a child is told apart from
/// adults because dlib's descriptor puts children closer together than adults (face_recognition's
/// users report it), and a video track from a photo because a video face lies further from a
/// portrait than two portraits do.
enum PairKind: String, CaseIterable {
    case adults = "adults, photo-photo"
    case children = "a child and anyone"
    case photoVideo = "photo-video"
    case videoAcrossFiles = "video-video, across files"
    case videoAcrossCuts = "video-video, within one video"

    init(_ a: DevelopmentPeople.Face, _ b: DevelopmentPeople.Face) {
        if a.isChild || b.isChild {
            self = .children
            return
        }
        switch (a.face.isVideo, b.face.isVideo) {
        case (false, false): self = .adults
        case (true, true): self = a.face.record.source == b.face.record.source ? .videoAcrossCuts : .videoAcrossFiles
        default: self = .photoVideo
        }
    }
}

/// The pairs of one kind: put in one person and one identity (true joins), in one person and two
/// identities (wrong joins), one identity in two people (missed joins); and how many pairs there are.
struct PairCount: Equatable {
    var trueJoins = 0
    var wrongJoins = 0
    var missedJoins = 0
    var pairs = 0

    /// What choosing a rule maximises: a wrong join costs two true ones, because two people merged
    /// are harder to notice and mend than one person split.
    var score: Int { trueJoins - 2 * wrongJoins }

    /// Pair precision and recall, `nil` without a join or a same-person pair.
    var precision: Double? { trueJoins + wrongJoins == 0 ? nil : Double(trueJoins) / Double(trueJoins + wrongJoins) }
    var recall: Double? { trueJoins + missedJoins == 0 ? nil : Double(trueJoins) / Double(trueJoins + missedJoins) }

    mutating func add(together: Bool, same: Bool) {
        pairs += 1
        if together && same { trueJoins += 1 }
        if together && !same { wrongJoins += 1 }
        if !together && same { missedJoins += 1 }
    }

    static func + (a: Self, b: Self) -> Self {
        Self(
            trueJoins: a.trueJoins + b.trueJoins, wrongJoins: a.wrongJoins + b.wrongJoins,
            missedJoins: a.missedJoins + b.missedJoins, pairs: a.pairs + b.pairs)
    }

    /// "true / wrong / missed".
    var cell: String { "\(trueJoins) / \(wrongJoins) / \(missedJoins)" }

    /// Each kind's count over the pairs of `faces` that `include` keeps, people as `people` says
    /// (a face with no person is in no pair's person).
    static func byKind(
        _ faces: [DevelopmentPeople.Face], people: [Int?], include: (Int, Int) -> Bool = { _, _ in true }
    ) -> [PairKind: PairCount] {
        var counts: [PairKind: PairCount] = [:]
        for a in faces.indices {
            for b in faces.indices where a < b && include(a, b) {
                let together = people[a] != nil && people[a] == people[b]
                counts[PairKind(faces[a], faces[b]), default: PairCount()]
                    .add(together: together, same: faces[a].identity == faces[b].identity)
            }
        }
        return counts
    }
}
