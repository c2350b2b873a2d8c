/// How many inputs of a collection were analysed, the faces they held and how many failed: what
/// the progress line and the summary show, and what the journal of `--output` keeps so that a
/// resumed run can report on the whole collection.
///
/// ```swift
/// var tally = CollectionTally()
/// tally.files += 1; tally.faces += 2   // CollectionTally(files: 1, faces: 2, failures: 0)
/// ```
struct CollectionTally: Equatable, Codable, Sendable {
    var files = 0
    var faces = 0
    var failures = 0
}
