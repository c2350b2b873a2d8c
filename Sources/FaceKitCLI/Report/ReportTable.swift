import FaceKit
import Foundation

/// What one table given to `facekit report` holds, told by its header (CSV) or its objects
/// (JSON Lines): faces (`analyze`, `track`, `group`'s faces.csv), a `track --summary` table,
/// or `group`'s people.csv.
enum ReportTable {
    case faces([ReportFace])
    case trackSummary([TrackSummaryRow])
    case people([PersonRow])

    /// A row of `track --summary`.
    struct TrackSummaryRow: Sendable {
        var source: String
        var trackingID: Int
        var blinks: Int?
        var person: String?
    }

    /// A row of `facekit group`'s people.csv (docs: the people contract).
    struct PersonRow: Sendable {
        var personID: Int
        var name: String?
        var faces: Int
        var photos: Int
        var videos: Int
        var bestSource: String
        var bestFrame: Int?
        var bestBox: CGRect
        var bestQuality: Double?
    }

    /// Why a file given as a table could not be read.
    struct Unreadable: Error {
        var description: String
    }

    /// The rows of a table left out for a value out of range (``ReportRowValues``), each with
    /// its message: `faces.csv: line 7: smiling_probability is 1e18, not a probability from 0 to 1`.
    /// Without one, reading throws at the first such row instead.
    final class SkippedRows {
        private(set) var messages: [String] = []

        init() {}

        func add(_ message: String) { messages.append(message) }
    }

    /// What to do about a table that is not there: name one that is, or make it first.
    static func missingTableFix(_ path: String) -> String {
        let format = ImageFileWalker.hasExtension(path, in: ["jsonl", "ndjson"]) ? "--format jsonl " : ""
        return "write it first (facekit analyze \(format)--output \(path) photos/, or track or group), "
            + "or give report the photos and videos to analyse itself"
    }

    /// Whether `path` is read as a table (by its extension) rather than analysed.
    static func isTableFileName(_ path: String) -> Bool {
        ImageFileWalker.hasExtension(path, in: ["csv", "jsonl", "ndjson"])
    }

    /// Reads the table at `path`; a row with a value out of range is left out, its message in
    /// `skipped`, or without `skipped` makes the whole table unreadable.
    static func read(_ path: String, skipped: SkippedRows? = nil) throws(Unreadable) -> ReportTable {
        let bytes: [UInt8]
        switch RegularFile.read(path) {
        case .success(let read): bytes = read
        case .failure(let refusal):
            throw Unreadable(
                description: "\(path): cannot read the table: \(refusal.reason)"
                    + (refusal.code == ENOENT ? "; \(Self.missingTableFix(path))" : ""))
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if ImageFileWalker.hasExtension(path, in: ["jsonl", "ndjson"]) {
            return .faces(try jsonLines(text, path: path, skipped: skipped))
        }
        return try csv(text: text, path: path, skipped: skipped)
    }

    /// The CSV table `text`, read from `path`.
    static func csv(text: String, path: String, skipped: SkippedRows? = nil) throws(Unreadable) -> ReportTable {
        let table: CSVTable
        do {
            table = try CSVTable(text: text)
        } catch {
            throw Unreadable(description: "\(path): \(error)")
        }
        return try csv(table, path: path, skipped: skipped)
    }

    /// A row's problem: left out into `skipped`, or without it the table refused.
    private static func skip(_ message: String, into skipped: SkippedRows?) throws(Unreadable) {
        guard let skipped else { throw Unreadable(description: message) }
        skipped.add(message)
    }

    /// A CSV table: people.csv, a track summary, or faces.
    static func csv(_ table: CSVTable, path: String, skipped: SkippedRows? = nil) throws(Unreadable) -> ReportTable {
        let header = table.header
        func cells(_ row: [String]) -> (String) -> String? {
            { name in
                guard let index = table.column(name), index < row.count, !row[index].isEmpty else { return nil }
                return row[index]
            }
        }
        if header.first == "person_id", header.contains("best_source") {
            var rows: [PersonRow] = []
            for (number, row) in table.rows.enumerated() {
                let cell = cells(row)
                var values = ReportRowValues(csv: cell)
                let id = values.integer("person_id", in: ReportRowValues.Limits.count, "a person ID from 0")
                let counts = ["faces", "photos", "videos"].map { values.integer($0, in: ReportRowValues.Limits.count, "a count from 0") ?? 0 }
                let frame = values.integer("best_frame", in: ReportRowValues.Limits.frame, "a frame number from 0")
                let corner = ["best_x", "best_y", "best_width", "best_height"].map {
                    values.number($0, in: ReportRowValues.Limits.coordinate, "a coordinate within 10000000 px of 0") ?? 0
                }
                let quality = values.probability("best_quality")
                if let problem = values.problem {
                    try skip("\(path): line \(table.lines[number]): \(problem)", into: skipped)
                    continue
                }
                guard let id, let source = cell("best_source").map(path(fromText:)) else { continue }
                rows.append(
                    PersonRow(
                        personID: id, name: cell("name"), faces: counts[0], photos: counts[1], videos: counts[2],
                        bestSource: source, bestFrame: frame,
                        bestBox: CGRect(x: corner[0], y: corner[1], width: corner[2], height: corner[3]),
                        bestQuality: quality))
            }
            return .people(rows)
        }
        if header.starts(with: ["source", "tracking_id", "first_frame"]) {
            var rows: [TrackSummaryRow] = []
            for (number, row) in table.rows.enumerated() {
                let cell = cells(row)
                var values = ReportRowValues(csv: cell)
                let id = values.integer("tracking_id", in: ReportRowValues.Limits.count, "a tracking ID from 0")
                let blinks = values.integer("blinks", in: ReportRowValues.Limits.count, "a count from 0")
                if let problem = values.problem {
                    try skip("\(path): line \(table.lines[number]): \(problem)", into: skipped)
                    continue
                }
                guard let source = cell("source").map(path(fromText:)), let id else { continue }
                rows.append(TrackSummaryRow(source: source, trackingID: id, blinks: blinks, person: cell("person")))
            }
            return .trackSummary(rows)
        }
        guard header.first == "source", let x = table.column("x"), let y = table.column("y"),
            let width = table.column("width"), let height = table.column("height")
        else {
            throw Unreadable(
                description:
                    "\(path): not a table facekit report reads: its header is neither analyze's or track's "
                    + "(source,frame,...,x,y,width,height,...), a track --summary, nor group's people.csv")
        }
        let probabilityColumns = ["smiling_probability", "left_eye_open_probability", "right_eye_open_probability"]
            .compactMap(table.column)
        // Tables before the _absent columns tell only by a probability present; newer ones also
        // by a reason other than not_requested (every face classified, none with an eye visible).
        let reasonColumns = ["smiling_probability", "left_eye_open_probability", "right_eye_open_probability"]
            .compactMap { table.column($0 + "_absent") }
        let classified = table.rows.contains { row in
            probabilityColumns.contains { $0 < row.count && !row[$0].isEmpty }
                || reasonColumns.contains { $0 < row.count && !row[$0].isEmpty && row[$0] != "not_requested" }
        }
        var faces: [ReportFace] = []
        faces.reserveCapacity(table.rows.count)
        for (number, row) in table.rows.enumerated() {
            let cell = cells(row)
            // An image or frame without a face, or an input that failed (table layout 3): no face to show.
            if let status = cell("status"), !RowStatus.holdsFace(status) { continue }
            // Every row has the header's cells (CSVTable checks), so the box's are there.
            guard let source = cell("source").map(Self.path(fromText:)) else {
                throw Unreadable(description: "\(path): line \(table.lines[number]): the source cell is empty")
            }
            var values = ReportRowValues(csv: cell)
            let box = Double(row[x]).flatMap { bx in
                Double(row[y]).flatMap { by in
                    Double(row[width]).flatMap { bw in
                        Double(row[height]).flatMap { bh in Self.box(x: bx, y: by, width: bw, height: bh) }
                    }
                }
            }
            if box == nil {
                values.fail("\(Self.badBox) (x,y,width,height are \(row[x]),\(row[y]),\(row[width]),\(row[height]))")
            }
            var face = Self.face(
                source: source, box: box ?? .zero, values: &values, euler: ["head_euler_x", "head_euler_y", "head_euler_z"])
            face.classified = classified
            face.person = cell("person")
            for type in FaceLandmark.LandmarkType.allCases {
                let name = type.snakeCaseName
                let what = "a coordinate within 10000000 px of 0"
                if let px = values.number(name + "_x", in: ReportRowValues.Limits.coordinate, what),
                    let py = values.number(name + "_y", in: ReportRowValues.Limits.coordinate, what)
                {
                    face.landmarks.append(FaceLandmark(type: type, position: CGPoint(x: px, y: py)))
                }
            }
            if let problem = values.problem {
                try skip("\(path): line \(table.lines[number]): \(problem)", into: skipped)
                continue
            }
            faces.append(face)
        }
        return .faces(faces)
    }

    /// A face row's numbers, each held to its range (``ReportRowValues``): a problem is left in
    /// `values`. `euler` names the head angles' columns (x, y, z).
    private static func face(source: String, box: CGRect, values: inout ReportRowValues, euler: [String]) -> ReportFace {
        typealias Limits = ReportRowValues.Limits
        var face = ReportFace(
            source: source, frame: values.integer("frame", in: Limits.frame, "a frame number from 0"),
            timestampMs: values.number("timestamp_ms", in: Limits.timestampMs, "a time within 100000000000 ms of 0"),
            index: values.integer("face", in: Limits.count, "a face number from 0") ?? 0, box: box)
        face.trackingID = values.integer("tracking_id", in: Limits.count, "a tracking ID from 0")
        face.detectionScore = values.probability("detection_score")
        let angles = euler.map { values.number($0, in: Limits.angle, "an angle from -180 to 180 degrees") }
        (face.headEulerX, face.headEulerY, face.headEulerZ) = (angles[0], angles[1], angles[2])
        face.smiling = values.probability("smiling_probability")
        face.leftEyeOpen = values.probability("left_eye_open_probability")
        face.rightEyeOpen = values.probability("right_eye_open_probability")
        face.quality = values.probability("quality")
        face.personDistance = values.number("person_distance", in: Limits.distance, "a descriptor distance from 0 to 100")
        face.personID = values.integer("person_id", in: Limits.count, "a person ID from 0")
        return face
    }

    /// The objects of `analyze --format jsonl` or `track --format jsonl`, one a line; a line with
    /// a value out of range is left out into `skipped` (without it, the table is refused).
    static func jsonLines(_ text: String, path: String, skipped: SkippedRows? = nil) throws(Unreadable) -> [ReportFace] {
        var faces: [ReportFace] = []
        // Numbered as an editor numbers them: blank lines count, and are no face.
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.allSatisfy(\.isWhitespace) {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            // An image or frame without a face, or an input that failed (table layout 3).
            if let status = object?["status"] as? String, !RowStatus.holdsFace(status) { continue }
            guard let object, let source = (object["source"] as? String).map(Self.path(fromText:)),
                let box = object["box"] as? [String: Any],
                let x = double(box["x"]), let y = double(box["y"]), let width = double(box["width"]),
                let height = double(box["height"])
            else {
                throw Unreadable(
                    description: "\(path): line \(number + 1) is not a face object of analyze or track --format jsonl")
            }
            var values = ReportRowValues(json: object)
            let shape = Self.box(x: x, y: y, width: width, height: height)
            if shape == nil { values.fail(Self.badBox) }
            var face = Self.face(
                source: source, box: shape ?? .zero, values: &values, euler: ["head_euler.x", "head_euler.y", "head_euler.z"])
            let absent = object["absent"] as? [String: Any] ?? [:]
            face.classified = ["smiling_probability", "left_eye_open_probability", "right_eye_open_probability"]
                .contains { key in JSONNumber.of(object[key]) != nil || (absent[key] as? String).map { $0 != "not_requested" } == true }
            face.person = object["person"] as? String
            // `analyze --descriptors` and `track --descriptors` write 128 numbers (null: none).
            if let numbers = object["descriptor"] as? [Any] {
                let read = numbers.compactMap(double).filter { abs($0) <= DescriptorLines.largestDescriptorValue }
                if read.count == FaceDescriptor.length, numbers.count == FaceDescriptor.length {
                    face.descriptor = FaceDescriptor(values: read.map(Float.init))
                } else {
                    values.fail("descriptor is not \(FaceDescriptor.length) numbers within 100 of 0")
                }
            }
            if let landmarks = object["landmarks"] as? [String: Any] {
                for type in FaceLandmark.LandmarkType.allCases {
                    guard let point = landmarks[type.snakeCaseName] as? [Any], point.count == 2,
                        let px = double(point[0]), let py = double(point[1])
                    else { continue }
                    guard ReportRowValues.Limits.coordinate.contains(px), ReportRowValues.Limits.coordinate.contains(py)
                    else {
                        values.fail("landmarks.\(type.snakeCaseName) is not a point within 10000000 px of 0")
                        continue
                    }
                    face.landmarks.append(FaceLandmark(type: type, position: CGPoint(x: px, y: py)))
                }
            }
            if let problem = values.problem {
                try skip("\(path): line \(number + 1): \(problem)", into: skipped)
                continue
            }
            faces.append(face)
        }
        return faces
    }

    /// The largest box coordinate or side a table may give, in pixels: far beyond any image
    /// FaceKit decodes, and small enough that no size computed from it can overflow.
    static let largestCoordinate = 10_000_000.0

    static let badBox =
        "a face box must be finite numbers of pixels, within 10000000 of 0, with a width and height above 0"

    /// The face box these numbers describe, or `nil` when they cannot be one (not finite, out of
    /// range, or without area).
    static func box(x: Double, y: Double, width: Double, height: Double) -> CGRect? {
        guard [x, y, width, height].allSatisfy({ $0.isFinite && abs($0) <= largestCoordinate }), width > 0, height > 0
        else { return nil }
        return CGRect(x: x, y: y, width: width, height: height)
    }

    /// A `source` cell as the path it stands for: the tables write a path's bytes that are not
    /// UTF-8 as `\xHH` (``FilePathEncoding``), which this undoes.
    static func path(fromText text: String) -> String {
        FilePathEncoding.string(fromPathBytes: FilePathEncoding.pathBytes(fromText: text))
    }

    private static func double(_ value: Any?) -> Double? { JSONNumber.of(value)?.doubleValue }
}
