import FaceKit
import Foundation
import FaceKitArguments

/// The CSV table of docs/cli.md: one row per face, and one for each image or analysed video frame
/// without a face and each input that failed, so that every input has a row; LF line ends, RFC
/// 4180 quoting.
///
/// `status` says what a row is (``RowStatus``: `detected`, `followed`, `no_face`, `failed`). An
/// empty cell means "not computed": no frame for a still image, no tracking ID without tracking,
/// an absent probability or landmark, no face at all in a `no_face` or `failed` row. Why a
/// probability is absent is in the column named after it with `_absent` (`not_requested`,
/// `eye_not_visible`, ...: the reasons JSON Lines gives under `absent`), empty when it is present.
///
/// ```
/// source,frame,timestamp_ms,status,face,tracking_id,x,y,width,height,detection_score,confidence,head_euler_x,...
/// photos/a.jpg,,,detected,0,,120.5,88,210,210,0.9312,0.9312,-3.1,12.25,0.5,,,,not_requested,not_requested,not_requested,0.7312,640,480,2012-12-06T15:46:01,
/// photos/b.jpg,,,no_face,,,,,,,,,,,,,,,,,,,640,480,,
/// ```
struct CSVFaceWriter: FaceRecordWriter {
    static let fixedColumns = [
        "source", "frame", "timestamp_ms", "status", "face", "tracking_id", "x", "y", "width", "height",
        "detection_score", "confidence", "head_euler_x", "head_euler_y", "head_euler_z",
        "smiling_probability", "left_eye_open_probability", "right_eye_open_probability",
        "smiling_probability_absent", "left_eye_open_probability_absent", "right_eye_open_probability_absent",
        "quality", "image_width", "image_height", "capture_time", "failure",
    ]
    /// The revision of the table's columns, which the journal of `--output` records so that a run
    /// interrupted before a change of columns is not continued with rows of another width: 2
    /// added the `_absent` columns (and left the video keys out of photos' JSON Lines); 3 added
    /// a row for every input (`status`, `failure`), `confidence`, the image's size and capture
    /// time.
    static let tableLayout = 3
    /// With `--known`: the name of the nearest known person within the tolerance (empty when no
    /// one is), and the distance to the nearest known person.
    static let personColumns = ["person", "person_distance"]
    /// With `--points68`: dlib's 68 points as OpenFace names them, every x, then every y.
    static let points68Columns = (0..<68).map { "x_\($0)" } + (0..<68).map { "y_\($0)" }

    let columns: FaceRecordColumns
    let output: any TextOutput

    init(columns: FaceRecordColumns, output: any TextOutput) {
        self.columns = columns
        self.output = output
    }

    /// The column names; `person,person_distance` follow only with known people, then landmark
    /// columns `<type>_x,<type>_y` only with landmarks, then `x_0`...`y_67` only with the 68 points.
    static func header(columns: FaceRecordColumns) -> [String] {
        var header = fixedColumns
        if columns.people { header += personColumns }
        if columns.landmarks {
            header += FaceLandmark.LandmarkType.allCases.flatMap { ["\($0.snakeCaseName)_x", "\($0.snakeCaseName)_y"] }
        }
        if columns.points68 { header += points68Columns }
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
            record.status.rawValue,
            String(record.index),
            face.trackingID.map(String.init) ?? "",
            text(Double(face.frame.origin.x), NumberFormat.coordinate),
            text(Double(face.frame.origin.y), NumberFormat.coordinate),
            text(Double(face.frame.size.width), NumberFormat.coordinate),
            text(Double(face.frame.size.height), NumberFormat.coordinate),
            text(face.detectionScore, NumberFormat.probability),
            text(record.confidence, NumberFormat.probability),
            text(face.headEulerAngleX, NumberFormat.angle),
            text(face.headEulerAngleY, NumberFormat.angle),
            text(face.headEulerAngleZ, NumberFormat.angle),
            text(face.smilingProbability, NumberFormat.probability),
            text(face.leftEyeOpenProbability, NumberFormat.probability),
            text(face.rightEyeOpenProbability, NumberFormat.probability),
        ]
        cells += Face.Probability.allCases.map { face.absenceReason($0)?.rawValue ?? "" }
        cells.append(text(face.quality, NumberFormat.probability))
        cells += imageCells(record.image) + [""]
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
        if columns.points68 {
            let points = face.points68.count == 68 ? face.points68 : Array(repeating: nil, count: 68)
            cells += points.map { text($0.map { Double($0.x) }, NumberFormat.coordinate) }
            cells += points.map { text($0.map { Double($0.y) }, NumberFormat.coordinate) }
        }
        return cells
    }

    /// The cells of a row without a face: its source, frame and time, status, image and failure,
    /// every face cell empty.
    static func cells(for record: FacelessRecord, columns: FaceRecordColumns) -> [String] {
        var cells = header(columns: columns).map { _ in "" }
        cells[0] = FilePathEncoding.text(record.source)
        cells[1] = record.frame.map(String.init) ?? ""
        cells[2] = record.timestampMilliseconds.flatMap(NumberFormat.timestamp) ?? ""
        cells[3] = record.status.rawValue
        let image = fixedColumns.firstIndex(of: "image_width")!
        cells.replaceSubrange(image..<image + 3, with: imageCells(record.image))
        cells[image + 3] = record.failure.map { FilePathEncoding.text($0) } ?? ""
        return cells
    }

    /// `image_width`, `image_height` and `capture_time`.
    static func imageCells(_ image: ImageFacts) -> [String] {
        [image.width.map(String.init) ?? "", image.height.map(String.init) ?? "", image.captureTime ?? ""]
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
    func write(_ record: FacelessRecord) { output.write(Self.line(Self.cells(for: record, columns: columns))) }
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
