import FaceKit
import FaceKitArguments

/// The journal of `facekit analyze --output FILE` (see ``CollectionJournal``).
///
/// ```
/// {"journal":"facekit analyze","settings":{"classify":false,...,"paths":["photos/"]},"version":1}
/// ```
typealias AnalyzeJournal = CollectionJournal<AnalyzeSettings>

/// What makes two runs of `facekit analyze` write the same output.
typealias AnalyzeSettings = RecordedSettings<AnalyzeOwnSettings>

/// The settings of `facekit analyze` that `track` does not have.
struct AnalyzeOwnSettings: CommandSettings {
    static let journalName = "facekit analyze"

    var contours: Bool
    /// Absent in journals written before detection scores existed (such a run is not resumed:
    /// it differs from every run now).
    var minDetectionScore: Double?
    /// Absent in journals written before faces were searched at any roll (those runs searched
    /// upright faces only).
    var orientation: String?
    var maxPixels: Int

    init(contours: Bool, minDetectionScore: Double?, orientation: FaceDetectorOptions.OrientationMode, maxPixels: Int) {
        self.contours = contours
        self.minDetectionScore = minDetectionScore
        self.orientation = orientation.rawValue
        self.maxPixels = maxPixels
    }

    func phrases(with collection: CollectionSettings) -> [(key: String, text: String)] {
        collection.phrases(
            detection: [("contours", CollectionSettings.flagPhrase("contours", contours))],
            own: [
                (
                    "min-detection-score",
                    minDetectionScore.map { "--min-detection-score \($0.defaultValueDescription)" }
                        ?? "no detection scores"
                ),
                ("orientation", orientation.map { "--orientation \($0)" } ?? "upright faces only, without close-ups"),
                ("max-pixels", "--max-pixels \(maxPixels)"),
            ])
    }
}
