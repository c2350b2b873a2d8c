/// How many inputs of a collection were analysed, the faces they held and how many failed: what
/// the progress line and the summary show, and what the journal of `--output` keeps so that a
/// resumed run can report on the whole collection. `facekit track` also keeps the frames it
/// analysed and the tracks it found (`nil` for `analyze`, and then left out of the journal).
///
/// ```swift
/// var tally = CollectionTally()
/// tally.files += 1; tally.faces += 2   // CollectionTally(files: 1, faces: 2, failures: 0)
/// ```
struct CollectionTally: Equatable, Codable, Sendable {
    var files = 0
    var faces = 0
    var failures = 0
    var frames: Int?
    var tracks: Int?
}
