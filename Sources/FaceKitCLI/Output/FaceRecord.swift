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
    /// The image or frame the face is in: its size, and when a photo was taken.
    var image = ImageFacts()

    /// `detected`, or `followed` for a video frame's face carried there by optical flow.
    var status: RowStatus { face.followedPointShare == nil ? .detected : .followed }

    /// How sure this frame is of the face: its detection score where the detector found it, the
    /// share of its points the optical flow brought back where it was followed.
    var confidence: Double { face.followedPointShare ?? face.detectionScore }
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
    /// Adds dlib's 68 points (`--points68`).
    var points68 = false
}

/// Writes the rows of one output format; ``writeHeader()`` once, then any number of rows.
protocol FaceRecordWriter {
    func writeHeader()
    func write(_ record: FaceRecord)
    /// The row of an image or frame without a face, or of an input that failed.
    func write(_ record: FacelessRecord)
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
