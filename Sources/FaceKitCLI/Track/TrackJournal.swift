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

    var phrases: [(key: String, text: String)] {
        func flag(_ name: String, _ on: Bool) -> String { on ? "--\(name)" : "no --\(name)" }
        return [
            ("version", "facekit \(facekitVersion)"),
            ("format", "--format \(format)"),
            ("mode", "--mode \(mode)"),
            ("landmarks", flag("landmarks", landmarks)),
            ("classify", flag("classify", classify)),
            ("min-face-size", "--min-face-size \(minFaceSize.defaultValueDescription)"),
            ("min-detection-score", "--min-detection-score \(minDetectionScore.defaultValueDescription)"),
            ("every", "--every \(every)"),
            ("start", "--start \(start.defaultValueDescription)"),
            ("end", end.map { "--end \($0.defaultValueDescription)" } ?? "no --end"),
            ("detection-interval", "--detection-interval \(detectionInterval)"),
            ("no-smoothing", flag("no-smoothing", !smoothing)),
            ("max-missed", "--max-missed \(maxMissed)"),
            ("reid-window", "--reid-window \(reidWindow.defaultValueDescription)"),
            ("no-reid", flag("no-reid", !reid)),
            ("descriptors", flag("descriptors", descriptors ?? false)),
            ("known", PeopleFlags.journalPhrase(known: known, tolerance: knownTolerance)),
            ("shard", shard.map { "--shard \($0)" } ?? "no --shard"),
            ("paths", "the paths " + paths.joined(separator: ", ")),
        ]
    }
}
