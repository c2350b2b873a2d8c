import FaceKitArguments

/// The settings every collection command (`analyze`, `track`) records in its journal: the
/// version and table layout, the format, the 68 points, the detection options both commands share, the people
/// options, the shard and the paths. A command's own settings come beside them
/// (``RecordedSettings``), in the same JSON object.
struct CollectionSettings: Codable, Equatable, Sendable {
    var facekitVersion: String
    var format: String
    var mode: String
    var landmarks: Bool
    /// `--points68`; absent without it (and in journals written before it existed).
    var points68: Bool?
    var classify: Bool
    var minFaceSize: Double
    /// `--descriptors`; absent in journals written before descriptors existed.
    var descriptors: Bool?
    /// `--known` and its tolerance; absent without it.
    var known: String?
    var knownTolerance: Double?
    var shard: String?
    var paths: [String]
    /// ``CSVFaceWriter/tableLayout``; absent in journals written before it was recorded (layout 1).
    var tableLayout: Int? = CSVFaceWriter.tableLayout
}

extension CollectionSettings {
    /// The settings a run with these flags over `paths` records.
    init(output: CollectionOutputFlags, detection: DetectionFlags, people: PeopleFlags, paths: [String]) {
        self.init(
            facekitVersion: FaceKitCommand.version, format: output.format.rawValue, mode: detection.mode.rawValue,
            landmarks: detection.landmarks, points68: output.points68 ? true : nil, classify: detection.classify, minFaceSize: detection.minFaceSize,
            descriptors: people.descriptors, known: people.known,
            knownTolerance: people.known.map { _ in people.knownTolerance }, shard: output.collectionShard?.description,
            paths: paths)
    }

    /// `--name` when `on`, `no --name` when not.
    static func flagPhrase(_ name: String, _ on: Bool) -> String { on ? "--\(name)" : "no --\(name)" }

    /// Every phrase of a command's settings (``JournalSettings/phrases``), in the order messages
    /// list them: the version, the table layout, the format, the mode and the landmarks; the
    /// command's own options of what is detected (`detection`: analyze's `--contours`); the
    /// classification and the smallest face; the command's other options (`own`); the
    /// descriptors, the known people, the shard and the paths.
    func phrases(detection: [(key: String, text: String)] = [], own: [(key: String, text: String)])
        -> [(key: String, text: String)]
    {
        var phrases: [(key: String, text: String)] = [
            ("version", "facekit \(facekitVersion)"),
            (
                "table-layout",
                tableLayout.map { "table layout \($0)" } ?? "table layout 1 (before the _absent columns)"
            ),
            ("format", "--format \(format)"),
            ("mode", "--mode \(mode)"),
            ("landmarks", Self.flagPhrase("landmarks", landmarks)),
            ("points68", Self.flagPhrase("points68", points68 ?? false)),
        ]
        phrases += detection
        phrases.append(("classify", Self.flagPhrase("classify", classify)))
        phrases.append(("min-face-size", "--min-face-size \(minFaceSize.defaultValueDescription)"))
        phrases += own
        phrases.append(("descriptors", Self.flagPhrase("descriptors", descriptors ?? false)))
        phrases.append(("known", PeopleFlags.journalPhrase(known: known, tolerance: knownTolerance)))
        phrases.append(("shard", shard.map { "--shard \($0)" } ?? "no --shard"))
        phrases.append(("paths", "the paths " + paths.joined(separator: ", ")))
        return phrases
    }
}
