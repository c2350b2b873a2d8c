import FaceKit
import Foundation
import FaceKitArguments

/// JSON Lines: one object per face, keys always in the same order, numbers rounded as in the CSV.
///
/// ```json
/// {"source":"a.jpg","face":0,
///  "box":{"x":120.5,"y":88,"width":210,"height":210},"detection_score":0.9312,"head_euler":{"x":-3.1,"y":12.25,"z":0.5},
///  "smiling_probability":null,"left_eye_open_probability":null,"right_eye_open_probability":null,
///  "absent":{"smiling_probability":"not_requested",...},"quality":0.7312}
/// ```
/// (one line in the output). `frame`, `timestamp_ms` and `tracking_id` come only with a video's
/// frames (after `source`, and after `face`). `absent` names the reason for each absent probability whose reason
/// is known (and for an absent descriptor, under `descriptor`); `quality` (``FaceQuality``)
/// follows it; `descriptor` (128 numbers, or `null`) appears only with descriptors requested,
/// `person` and `person_distance` only with known people; `landmarks` (all 10 keys, `null` when absent) appears only with landmarks requested;
/// `contours` (the contours this face has, `{}` when none) only with contours requested.
struct JSONLinesFaceWriter: FaceRecordWriter {
    let columns: FaceRecordColumns
    let output: any TextOutput

    init(columns: FaceRecordColumns, output: any TextOutput) {
        self.columns = columns
        self.output = output
    }

    func writeHeader() {}
    func write(_ record: FaceRecord) { output.write(Self.line(for: record, columns: columns)) }

    /// The object for one face, ending in LF.
    static func line(for record: FaceRecord, columns: FaceRecordColumns) -> String {
        let face = record.face
        var json = "{\"source\":" + string(FilePathEncoding.text(record.source))
        // A photo has no frame, time or track: the keys are left out rather than null, as a
        // column of nulls named timestamp_* is read as dates by pandas.read_json.
        if let frame = record.frame {
            json += ",\"frame\":" + String(frame)
            json += ",\"timestamp_ms\":" + number(record.timestampMilliseconds, NumberFormat.timestamp)
        }
        json += ",\"face\":" + String(record.index)
        if record.frame != nil { json += ",\"tracking_id\":" + (face.trackingID.map(String.init) ?? "null") }
        json += ",\"box\":{\"x\":" + number(Double(face.frame.origin.x), NumberFormat.coordinate)
        json += ",\"y\":" + number(Double(face.frame.origin.y), NumberFormat.coordinate)
        json += ",\"width\":" + number(Double(face.frame.size.width), NumberFormat.coordinate)
        json += ",\"height\":" + number(Double(face.frame.size.height), NumberFormat.coordinate) + "}"
        json += ",\"detection_score\":" + number(face.detectionScore, NumberFormat.probability)
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
