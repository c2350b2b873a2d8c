import FaceKitArguments

/// The journal of `facekit track --output FILE` (see ``CollectionJournal``): one checkpoint per
/// video done, since a video is resumed from its start.
///
/// ```
/// {"journal":"facekit track","settings":{"classify":false,...,"paths":["clips/"]},"version":1}
/// ```
typealias TrackJournal = CollectionJournal<TrackSettings>

/// What makes two runs of `facekit track` write the same output.
struct TrackSettings: JournalSettings {
    static let journalName = "facekit track"

    var facekitVersion: String
    var format: String
    var mode: String
    var landmarks: Bool
    var classify: Bool
    var minFaceSize: Double
    var minDetectionScore: Double
    var every: Int
    var start: Double
    var end: Double?
    var detectionInterval: Int
    var smoothing: Bool
    var maxMissed: Int
    var reidWindow: Double
    var reid: Bool
    /// `--descriptors`; absent in journals written before descriptors existed.
    var descriptors: Bool?
    /// `--known` and its tolerance; absent without it.
    var known: String?
    var knownTolerance: Double?
    var shard: String?
    var paths: [String]
    /// ``CSVFaceWriter/tableLayout``; absent in journals written before it was recorded (layout 1).
    var tableLayout: Int? = CSVFaceWriter.tableLayout

    var phrases: [(key: String, text: String)] {
        Self.leadingPhrases(
            facekitVersion: facekitVersion, tableLayout: tableLayout, format: format, mode: mode, landmarks: landmarks)
            + [
                ("classify", Self.flagPhrase("classify", classify)),
                ("min-face-size", "--min-face-size \(minFaceSize.defaultValueDescription)"),
                ("min-detection-score", "--min-detection-score \(minDetectionScore.defaultValueDescription)"),
                ("every", "--every \(every)"),
                ("start", "--start \(start.defaultValueDescription)"),
                ("end", end.map { "--end \($0.defaultValueDescription)" } ?? "no --end"),
                ("detection-interval", "--detection-interval \(detectionInterval)"),
                ("no-smoothing", Self.flagPhrase("no-smoothing", !smoothing)),
                ("max-missed", "--max-missed \(maxMissed)"),
                ("reid-window", "--reid-window \(reidWindow.defaultValueDescription)"),
                ("no-reid", Self.flagPhrase("no-reid", !reid)),
            ]
            + Self.trailingPhrases(
                descriptors: descriptors, known: known, knownTolerance: knownTolerance, shard: shard, paths: paths)
    }
}
