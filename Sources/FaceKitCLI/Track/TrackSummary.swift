import FaceKit
import FaceKitArguments

/// The per-track table of `facekit track --summary`: one row per tracking ID, where it was
/// first and last seen and in how many analysed frames.
///
/// `mean_smiling_probability` averages the smiling probabilities the track's faces have, and is
/// empty when none has one. `blinks` counts the track's blinks (``BlinkCounter``) when
/// classification is on (`--classify`), and is empty otherwise. `best_frame` is the frame of the
/// track's best shot (highest ``FaceQuality``), `best_quality` its quality; with `--known`,
/// `person` names the track (empty when it matches no one).
///
/// ```
/// source,tracking_id,first_frame,last_frame,first_timestamp_ms,last_timestamp_ms,duration_ms,frames_seen,mean_smiling_probability,blinks,best_frame,best_quality
/// clip.mp4,0,0,124,0,4960,4960,118,0.412,3,87,0.8123
/// ```
struct TrackSummary {
    static let header = [
        "source", "tracking_id", "first_frame", "last_frame", "first_timestamp_ms", "last_timestamp_ms",
        "duration_ms", "frames_seen", "mean_smiling_probability", "blinks", "best_frame", "best_quality",
    ]

    /// One track's life so far.
    struct Entry: Equatable {
        var source: String
        var trackingID: Int
        var firstFrame: Int
        var lastFrame: Int
        var firstTimestampMs: Double
        var lastTimestampMs: Double
        var framesSeen = 1
        var smilingSum = 0.0
        var smilingCount = 0
        var blinks = BlinkCounter()
        var bestFrame: Int
        var bestQuality: Double
        var person: String?

        var durationMs: Double { lastTimestampMs - firstTimestampMs }
        var meanSmilingProbability: Double? { smilingCount > 0 ? smilingSum / Double(smilingCount) : nil }
    }

    /// Whether the `blinks` column is filled in: only eye-open probabilities make blinks countable.
    let countsBlinks: Bool
    /// Whether the `person` column is written (`--known`).
    let namesPeople: Bool
    /// Entries in the order their tracks first appeared.
    private(set) var entries: [Entry] = []
    private var positions: [String: [Int: Int]] = [:]

    init(countsBlinks: Bool, namesPeople: Bool = false) {
        self.countsBlinks = countsBlinks
        self.namesPeople = namesPeople
    }

    /// The columns written.
    var header: [String] { Self.header + (namesPeople ? ["person"] : []) }

    /// Counts a video row's face (which must have a tracking ID).
    mutating func add(_ record: FaceRecord) {
        add(
            record.face, source: record.source, frame: record.frame!, timestampMs: record.timestampMilliseconds!,
            person: record.person?.name)
    }

    /// Counts `face` (which must have a tracking ID) as seen at this frame.
    mutating func add(_ face: Face, source: String, frame: Int, timestampMs: Double, person: String? = nil) {
        guard let id = face.trackingID else { preconditionFailure("TrackSummary.add: the face has no tracking ID") }
        if let position = positions[source]?[id] {
            entries[position].lastFrame = frame
            entries[position].lastTimestampMs = timestampMs
            entries[position].framesSeen += 1
            if let smile = face.smilingProbability {
                entries[position].smilingSum += smile
                entries[position].smilingCount += 1
            }
            entries[position].blinks.record(face, timestampMs: timestampMs)
            if face.quality > entries[position].bestQuality {
                entries[position].bestQuality = face.quality
                entries[position].bestFrame = frame
            }
            entries[position].person = entries[position].person ?? person
        } else {
            positions[source, default: [:]][id] = entries.count
            var entry = Entry(
                source: source, trackingID: id, firstFrame: frame, lastFrame: frame, firstTimestampMs: timestampMs,
                lastTimestampMs: timestampMs, bestFrame: frame, bestQuality: face.quality, person: person)
            if let smile = face.smilingProbability {
                entry.smilingSum = smile
                entry.smilingCount = 1
            }
            entry.blinks.record(face, timestampMs: timestampMs)
            entries.append(entry)
        }
    }

    /// The whole table as CSV, header first, rows ordered by source (as given) then tracking ID.
    func csv() -> String {
        let rows = entries.enumerated().sorted { a, b in
            a.element.source == b.element.source ? a.element.trackingID < b.element.trackingID : a.offset < b.offset
        }
        var text = CSVFaceWriter.line(header)
        for (_, entry) in rows {
            text += CSVFaceWriter.line([
                FilePathEncoding.text(entry.source), String(entry.trackingID), String(entry.firstFrame),
                String(entry.lastFrame),
                NumberFormat.timestamp(entry.firstTimestampMs) ?? "",
                NumberFormat.timestamp(entry.lastTimestampMs) ?? "",
                NumberFormat.timestamp(entry.durationMs) ?? "", String(entry.framesSeen),
                entry.meanSmilingProbability.flatMap(NumberFormat.probability) ?? "",
                countsBlinks ? String(entry.blinks.count) : "",
                String(entry.bestFrame), NumberFormat.probability(entry.bestQuality) ?? "",
            ] + (namesPeople ? [entry.person ?? ""] : []))
        }
        return text
    }
}
