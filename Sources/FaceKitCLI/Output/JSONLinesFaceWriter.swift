import FaceKit
import Foundation
import FaceKitArguments

/// JSON Lines: one object per face, and one for each image or analysed video frame without a face
/// and each input that failed; keys always in the same order, numbers rounded as in the CSV.
///
/// ```json
/// {"source":"a.jpg","status":"detected","face":0,
///  "box":{"x":120.5,"y":88,"width":210,"height":210},"detection_score":0.9312,"confidence":0.9312,
///  "head_euler":{"x":-3.1,"y":12.25,"z":0.5},
///  "smiling_probability":null,"left_eye_open_probability":null,"right_eye_open_probability":null,
///  "absent":{"smiling_probability":"not_requested",...},"quality":0.7312,
///  "image_width":640,"image_height":480,"capture_time":"2012-12-06T15:46:01"}
/// {"source":"b.jpg","status":"no_face","image_width":640,"image_height":480}
/// {"source":"c.jpg","status":"failed","failure":"not a readable image: empty file"}
/// ```
/// (each object one line in the output). `frame` and `timestamp_ms` come only with a video's
/// frames (after `source`), and `tracking_id` with a video frame's face (after `face`).
/// `status` is the CSV's (``RowStatus``); an object without a face has no face keys at all.
/// `absent` names the reason for each absent probability whose reason is known (and for an
/// absent descriptor, under `descriptor`); `quality` (``FaceQuality``) follows it; then the image's
/// size, and `capture_time` only when the photo records one (a key of nulls named `*_time` would be
/// read as dates by `pandas.read_json`). `descriptor` (128 numbers, or `null`) appears only with
/// descriptors requested, `person` and `person_distance` only with known people; `landmarks` (all
/// 10 keys, `null` when absent) only with landmarks requested; `points68` (68 `[x, y]`, `null`
/// outside the picture) only with the 68 points requested; `contours` (the contours this face has,
/// `{}` when none) only with contours requested.
struct JSONLinesFaceWriter: FaceRecordWriter {
    let columns: FaceRecordColumns
    let output: any TextOutput

    init(columns: FaceRecordColumns, output: any TextOutput) {
        self.columns = columns
        self.output = output
    }

    func writeHeader() {}
    func write(_ record: FaceRecord) { output.write(Self.line(for: record, columns: columns)) }
    func write(_ record: FacelessRecord) { output.write(Self.line(for: record)) }

    /// `{"source":...` with `frame` and `timestamp_ms` for a video frame, then `status`.
    private static func opening(source: String, frame: Int?, timestampMilliseconds: Double?, status: RowStatus) -> String {
        var json = "{\"source\":" + string(FilePathEncoding.text(source))
        // A photo has no frame, time or track: the keys are left out rather than null, as a
        // column of nulls named timestamp_* is read as dates by pandas.read_json.
        if let frame {
            json += ",\"frame\":" + String(frame)
            json += ",\"timestamp_ms\":" + number(timestampMilliseconds, NumberFormat.timestamp)
        }
        return json + ",\"status\":" + string(status.rawValue)
    }

    /// `"image_width":...,"image_height":...`, and `"capture_time"` when known.
    private static func imageKeys(_ image: ImageFacts) -> String {
        var json = ",\"image_width\":" + (image.width.map(String.init) ?? "null")
        json += ",\"image_height\":" + (image.height.map(String.init) ?? "null")
        if let time = image.captureTime { json += ",\"capture_time\":" + string(time) }
        return json
    }

    /// The object for an image or frame without a face, or an input that failed, ending in LF.
    static func line(for record: FacelessRecord) -> String {
        var json = opening(
            source: record.source, frame: record.frame, timestampMilliseconds: record.timestampMilliseconds,
            status: record.status)
        if record.status == .noFace { json += imageKeys(record.image) }
        if let failure = record.failure { json += ",\"failure\":" + string(FilePathEncoding.text(failure)) }
        return json + "}\n"
    }

    /// The object for one face, ending in LF.
    static func line(for record: FaceRecord, columns: FaceRecordColumns) -> String {
        let face = record.face
        var json = opening(
            source: record.source, frame: record.frame, timestampMilliseconds: record.timestampMilliseconds,
            status: record.status)
        json += ",\"face\":" + String(record.index)
        if record.frame != nil { json += ",\"tracking_id\":" + (face.trackingID.map(String.init) ?? "null") }
        json += ",\"box\":{\"x\":" + number(Double(face.frame.origin.x), NumberFormat.coordinate)
        json += ",\"y\":" + number(Double(face.frame.origin.y), NumberFormat.coordinate)
        json += ",\"width\":" + number(Double(face.frame.size.width), NumberFormat.coordinate)
        json += ",\"height\":" + number(Double(face.frame.size.height), NumberFormat.coordinate) + "}"
        json += ",\"detection_score\":" + number(face.detectionScore, NumberFormat.probability)
        json += ",\"confidence\":" + number(record.confidence, NumberFormat.probability)
        json += ",\"head_euler\":{\"x\":" + number(face.headEulerAngleX, NumberFormat.angle)
        json += ",\"y\":" + number(face.headEulerAngleY, NumberFormat.angle)
        json += ",\"z\":" + number(face.headEulerAngleZ, NumberFormat.angle) + "}"
        var absent: [String] = []
        for kind in Face.Probability.allCases {
            let key = probabilityKey(kind)
            json += ",\"\(key)\":" + number(face.probability(kind), NumberFormat.probability)
            if let reason = face.absenceReason(kind) { absent.append("\"\(key)\":" + string(reason.rawValue)) }
        }
        if columns.descriptors, let reason = face.descriptorAbsenceReason {
            absent.append("\"descriptor\":" + string(reason.rawValue))
        }
        json += ",\"absent\":{" + absent.joined(separator: ",") + "}"
        json += ",\"quality\":" + number(face.quality, NumberFormat.probability)
        json += imageKeys(record.image)
        if columns.descriptors {
            json += ",\"descriptor\":"
                + (face.descriptor.map { descriptor in
                    "[" + descriptor.values.map { number(Double($0), NumberFormat.descriptorValue) }.joined(separator: ",") + "]"
                } ?? "null")
        }
        if columns.people {
            json += ",\"person\":" + (record.person?.name.map(string) ?? "null")
            json += ",\"person_distance\":" + number(record.person?.distance, NumberFormat.probability)
        }
        if columns.landmarks {
            let landmarks = FaceLandmark.LandmarkType.allCases.map { type in
                "\"\(type.snakeCaseName)\":"
                    + (face.landmark(ofType: type).map { point(Double($0.position.x), Double($0.position.y)) } ?? "null")
            }
            json += ",\"landmarks\":{" + landmarks.joined(separator: ",") + "}"
        }
        if columns.points68 {
            let points = face.points68.count == 68 ? face.points68 : Array(repeating: nil, count: 68)
            json += ",\"points68\":["
                + points.map { $0.map { point(Double($0.x), Double($0.y)) } ?? "null" }.joined(separator: ",") + "]"
        }
        if columns.contours {
            let contours = FaceContour.ContourType.allCases.compactMap { type in
                face.contour(ofType: type).map { contour in
                    "\"\(type.snakeCaseName)\":["
                        + contour.points.map { point(Double($0.x), Double($0.y)) }.joined(separator: ",") + "]"
                }
            }
            json += ",\"contours\":{" + contours.joined(separator: ",") + "}"
        }
        return json + "}\n"
    }

    /// `smiling_probability`, `left_eye_open_probability`, `right_eye_open_probability`.
    static func probabilityKey(_ kind: Face.Probability) -> String {
        switch kind {
        case .smiling: "smiling_probability"
        case .leftEyeOpen: "left_eye_open_probability"
        case .rightEyeOpen: "right_eye_open_probability"
        }
    }

    /// `value` rounded, or `null` when absent or not finite.
    static func number(_ value: Double?, _ format: (Double) -> String?) -> String {
        value.flatMap(format) ?? "null"
    }

    static func point(_ x: Double, _ y: Double) -> String {
        "[" + number(x, NumberFormat.coordinate) + "," + number(y, NumberFormat.coordinate) + "]"
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped, the rest as is.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case "\u{2028}": result += "\\u2028"
            case "\u{2029}": result += "\\u2029"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
