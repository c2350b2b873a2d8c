import FaceKit
import FaceKitArguments

/// One face of one image or video frame: what a row of the output holds.
struct FaceRecord {
    /// The image or video path as given on the command line.
    var source: String
    /// 0-based frame index for video; `nil` for a still image.
    var frame: Int?
    /// Presentation time of the frame in milliseconds; `nil` for a still image.
    var timestampMilliseconds: Double?
    /// 0-based index of the face within its image or frame.
    var index: Int
    var face: Face
    /// Who the face is among the known people (`--known`), when it has a descriptor.
    var person: KnownPeople.Match?
}

/// What an output table contains besides the fixed columns.
struct FaceRecordColumns: Equatable, Sendable {
    /// Adds the 10 landmarks.
    var landmarks = false
    /// Adds the contours (JSON Lines only; a table has no room for 133 points).
    var contours = false
    /// Adds the 128-number descriptor (JSON Lines only).
    var descriptors = false
    /// Adds `person` and `person_distance` (`--known`).
    var people = false
}

/// Writes face records in one output format; ``writeHeader()`` once, then any number of records.
protocol FaceRecordWriter {
    func writeHeader()
    func write(_ record: FaceRecord)
}

/// The output formats of `facekit analyze --format`.
enum OutputFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
    case csv
    case jsonl

    /// A writer of this format onto `output`.
    func writer(columns: FaceRecordColumns, output: any TextOutput) -> any FaceRecordWriter {
        switch self {
        case .csv: CSVFaceWriter(columns: columns, output: output)
        case .jsonl: JSONLinesFaceWriter(columns: columns, output: output)
        }
    }
}
