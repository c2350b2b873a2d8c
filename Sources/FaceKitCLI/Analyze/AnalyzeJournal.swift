import FaceKitArguments

/// The journal of `facekit analyze --output FILE` (see ``CollectionJournal``).
///
/// ```
/// {"journal":"facekit analyze","settings":{"classify":false,...,"paths":["photos/"]},"version":1}
/// ```
typealias AnalyzeJournal = CollectionJournal<AnalyzeSettings>

/// What makes two runs of `facekit analyze` write the same output.
struct AnalyzeSettings: JournalSettings {
    static let journalName = "facekit analyze"

    var facekitVersion: String
    var format: String
    var mode: String
    var landmarks: Bool
    var contours: Bool
    var classify: Bool
    var minFaceSize: Double
    /// Absent in journals written before detection scores existed (such a run is not resumed:
    /// it differs from every run now).
    var minDetectionScore: Double?
    var maxPixels: Int
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
                ("contours", Self.flagPhrase("contours", contours)),
                ("classify", Self.flagPhrase("classify", classify)),
                ("min-face-size", "--min-face-size \(minFaceSize.defaultValueDescription)"),
                (
                    "min-detection-score",
                    minDetectionScore.map { "--min-detection-score \($0.defaultValueDescription)" }
                        ?? "no detection scores"
                ),
                ("max-pixels", "--max-pixels \(maxPixels)"),
            ]
            + Self.trailingPhrases(
                descriptors: descriptors, known: known, knownTolerance: knownTolerance, shard: shard, paths: paths)
    }
}
