import FaceKit
import Foundation
import FaceKitArguments

/// The CSV table of docs/mlkit-semantics.md: one row per face, LF line ends, RFC 4180 quoting.
///
/// An empty cell means "not computed": no frame for a still image, no tracking ID without
/// tracking, an absent probability or landmark. Why a probability is absent is in the column
/// named after it with `_absent` (`not_requested`, `eye_not_visible`, ...: the reasons JSON Lines
/// gives under `absent`), empty when it is present.
///
/// ```
/// source,frame,timestamp_ms,face,tracking_id,x,y,width,height,detection_score,head_euler_x,...
/// photos/a.jpg,,,0,,120.5,88,210,210,0.9312,-3.1,12.25,0.5,,,,not_requested,not_requested,not_requested,0.7312
/// ```
struct CSVFaceWriter: FaceRecordWriter {
    static let fixedColumns = [
        "source", "frame", "timestamp_ms", "face", "tracking_id", "x", "y", "width", "height", "detection_score",
        "head_euler_x", "head_euler_y", "head_euler_z",
        "smiling_probability", "left_eye_open_probability", "right_eye_open_probability",
        "smiling_probability_absent", "left_eye_open_probability_absent", "right_eye_open_probability_absent",
        "quality",
    ]
    /// The revision of the table's columns, which the journal of `--output` records so that a run
    /// interrupted before a change of columns is not continued with rows of another width: 2
    /// added the `_absent` columns (and left the video keys out of photos' JSON Lines).
    static let tableLayout = 2
    /// With `--known`: the name of the nearest known person within the tolerance (empty when no
    /// one is), and the distance to the nearest known person.
    static let personColumns = ["person", "person_distance"]

    let columns: FaceRecordColumns
    let output: any TextOutput

    init(columns: FaceRecordColumns, output: any TextOutput) {
        self.columns = columns
        self.output = output
    }

    /// The column names; `person,person_distance` follow only with known people, then landmark
    /// columns `<type>_x,<type>_y` only with landmarks.
    static func header(columns: FaceRecordColumns) -> [String] {
        var header = fixedColumns
        if columns.people { header += personColumns }
        if columns.landmarks {
            header += FaceLandmark.LandmarkType.allCases.flatMap { ["\($0.snakeCaseName)_x", "\($0.snakeCaseName)_y"] }
        }
        return header
    }

    /// The cells of one row, unquoted.
    static func cells(for record: FaceRecord, columns: FaceRecordColumns) -> [String] {
        let face = record.face
        func text(_ value: Double?, _ format: (Double) -> String?) -> String { value.flatMap(format) ?? "" }
        var cells = [
            FilePathEncoding.text(record.source),
            record.frame.map(String.init) ?? "",
            text(record.timestampMilliseconds, NumberFormat.timestamp),
            String(record.index),
            face.trackingID.map(String.init) ?? "",
            text(Double(face.frame.origin.x), NumberFormat.coordinate),
            text(Double(face.frame.origin.y), NumberFormat.coordinate),
            text(Double(face.frame.size.width), NumberFormat.coordinate),
            text(Double(face.frame.size.height), NumberFormat.coordinate),
            text(face.detectionScore, NumberFormat.probability),
            text(face.headEulerAngleX, NumberFormat.angle),
            text(face.headEulerAngleY, NumberFormat.angle),
            text(face.headEulerAngleZ, NumberFormat.angle),
            text(face.smilingProbability, NumberFormat.probability),
            text(face.leftEyeOpenProbability, NumberFormat.probability),
            text(face.rightEyeOpenProbability, NumberFormat.probability),
        ]
        cells += Face.Probability.allCases.map { face.absenceReason($0)?.rawValue ?? "" }
        cells.append(text(face.quality, NumberFormat.probability))
        if columns.people {
            cells.append(record.person?.name ?? "")
            cells.append(text(record.person?.distance, NumberFormat.probability))
        }
        if columns.landmarks {
            for type in FaceLandmark.LandmarkType.allCases {
                let position = face.landmark(ofType: type)?.position
                cells.append(text(position.map { Double($0.x) }, NumberFormat.coordinate))
                cells.append(text(position.map { Double($0.y) }, NumberFormat.coordinate))
            }
        }
        return cells
    }

    /// `field` quoted per RFC 4180 when it holds a comma, a double quote, CR or LF.
    static func quoted(_ field: String) -> String {
        guard field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else {
            return field
        }
        return "\"" + field.doublingQuotes() + "\""
    }

    /// One line of CSV, ending in LF.
    static func line(_ cells: [String]) -> String {
        cells.map(quoted).joined(separator: ",") + "\n"
    }

    func writeHeader() { output.write(Self.line(Self.header(columns: columns))) }
    func write(_ record: FaceRecord) { output.write(Self.line(Self.cells(for: record, columns: columns))) }
}

extension String {
    /// Every `"` written twice, as RFC 4180 escapes it inside a quoted field.
    fileprivate func doublingQuotes() -> String {
        var result = ""
        for scalar in unicodeScalars {
            if scalar == "\"" { result += "\"\"" } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}
