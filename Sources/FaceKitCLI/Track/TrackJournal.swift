import FaceKit
import FaceKitArguments

/// The journal of `facekit track --output FILE` (see ``CollectionJournal``): one checkpoint per
/// video done, since a video is resumed from its start.
///
/// ```
/// {"journal":"facekit track","settings":{"classify":false,...,"paths":["clips/"]},"version":1}
/// ```
typealias TrackJournal = CollectionJournal<TrackSettings>

/// What makes two runs of `facekit track` write the same output.
typealias TrackSettings = RecordedSettings<TrackOwnSettings>

/// The settings of `facekit track` that `analyze` does not have: the frames and the tracker.
struct TrackOwnSettings: CommandSettings {
    static let journalName = "facekit track"

    var minDetectionScore: Double
    var every: Int
    var start: Double
    var end: Double?
    var detectionInterval: Int
    var smoothing: Bool
    var maxMissed: Int
    var reidWindow: Double
    var reid: Bool
    /// `nil` in a journal written before track took `--max-pixels`: the default.
    var maxPixels: Int?

    func phrases(with collection: CollectionSettings) -> [(key: String, text: String)] {
        collection.phrases(own: [
            ("min-detection-score", "--min-detection-score \(minDetectionScore.defaultValueDescription)"),
            ("every", "--every \(every)"),
            ("start", "--start \(start.defaultValueDescription)"),
            ("end", end.map { "--end \($0.defaultValueDescription)" } ?? "no --end"),
            ("detection-interval", "--detection-interval \(detectionInterval)"),
            ("no-smoothing", CollectionSettings.flagPhrase("no-smoothing", !smoothing)),
            ("max-missed", "--max-missed \(maxMissed)"),
            ("reid-window", "--reid-window \(reidWindow.defaultValueDescription)"),
            ("no-reid", CollectionSettings.flagPhrase("no-reid", !reid)),
            ("max-pixels", "--max-pixels \(maxPixels ?? FaceImage.defaultMaxPixels)"),
        ])
    }
}
