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

    /// Reads the table at `path`.
    static func read(_ path: String) throws(Unreadable) -> ReportTable {
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
            return .faces(try jsonLines(text, path: path))
        }
        return try csv(text: text, path: path)
    }

    /// The CSV table `text`, read from `path`.
    static func csv(text: String, path: String) throws(Unreadable) -> ReportTable {
        let table: CSVTable
        do {
            table = try CSVTable(text: text)
        } catch {
            throw Unreadable(description: "\(path): \(error)")
        }
        return try csv(table, path: path)
    }

    /// A CSV table: people.csv, a track summary, or faces.
    static func csv(_ table: CSVTable, path: String) throws(Unreadable) -> ReportTable {
        let header = table.header
        func cells(_ row: [String]) -> (String) -> String? {
            { name in
                guard let index = table.column(name), index < row.count, !row[index].isEmpty else { return nil }
                return row[index]
            }
        }
        if header.first == "person_id", header.contains("best_source") {
            return .people(
                table.rows.compactMap { row in
                    let cell = cells(row)
                    guard let id = cell("person_id").flatMap(Int.init), let source = cell("best_source").map(path(fromText:))
                    else {
                        return nil
                    }
                    return PersonRow(
                        personID: id, name: cell("name"), faces: cell("faces").flatMap(Int.init) ?? 0,
                        photos: cell("photos").flatMap(Int.init) ?? 0, videos: cell("videos").flatMap(Int.init) ?? 0,
                        bestSource: source, bestFrame: cell("best_frame").flatMap(Int.init),
                        bestBox: CGRect(
                            x: cell("best_x").flatMap(Double.init) ?? 0, y: cell("best_y").flatMap(Double.init) ?? 0,
                            width: cell("best_width").flatMap(Double.init) ?? 0,
                            height: cell("best_height").flatMap(Double.init) ?? 0),
                        bestQuality: cell("best_quality").flatMap(Double.init))
                })
        }
        if header.starts(with: ["source", "tracking_id", "first_frame"]) {
            return .trackSummary(
                table.rows.compactMap { row in
                    let cell = cells(row)
                    guard let source = cell("source").map(path(fromText:)), let id = cell("tracking_id").flatMap(Int.init)
                    else {
                        return nil
                    }
                    return TrackSummaryRow(
                        source: source, trackingID: id, blinks: cell("blinks").flatMap(Int.init),
                        person: cell("person"))
                })
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
        let landmarkColumns = FaceLandmark.LandmarkType.allCases.compactMap { type -> (FaceLandmark.LandmarkType, Int, Int)? in
            guard let lx = table.column(type.snakeCaseName + "_x"), let ly = table.column(type.snakeCaseName + "_y")
            else { return nil }
            return (type, lx, ly)
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
            guard let bx = Double(row[x]), let by = Double(row[y]), let bw = Double(row[width]),
                let bh = Double(row[height]), let box = Self.box(x: bx, y: by, width: bw, height: bh)
            else {
                throw Unreadable(
                    description: "\(path): line \(table.lines[number]): \(Self.badBox) (x,y,width,height are "
                        + "\(row[x]),\(row[y]),\(row[width]),\(row[height]))")
            }
            var face = ReportFace(
                source: source, frame: cell("frame").flatMap(Int.init), timestampMs: cell("timestamp_ms").flatMap(Double.init),
                index: cell("face").flatMap(Int.init) ?? 0, box: box)
            face.trackingID = cell("tracking_id").flatMap(Int.init)
            face.detectionScore = cell("detection_score").flatMap(Double.init)
            face.headEulerX = cell("head_euler_x").flatMap(Double.init)
            face.headEulerY = cell("head_euler_y").flatMap(Double.init)
            face.headEulerZ = cell("head_euler_z").flatMap(Double.init)
            face.smiling = cell("smiling_probability").flatMap(Double.init)
            face.leftEyeOpen = cell("left_eye_open_probability").flatMap(Double.init)
            face.rightEyeOpen = cell("right_eye_open_probability").flatMap(Double.init)
            face.classified = classified
            face.quality = cell("quality").flatMap(Double.init)
            face.person = cell("person")
            face.personDistance = cell("person_distance").flatMap(Double.init)
            face.personID = cell("person_id").flatMap(Int.init)
            for (type, lx, ly) in landmarkColumns where lx < row.count && ly < row.count {
                if let px = Double(row[lx]), let py = Double(row[ly]) {
                    face.landmarks.append(FaceLandmark(type: type, position: CGPoint(x: px, y: py)))
                }
            }
            faces.append(face)
        }
        return .faces(faces)
    }

    /// The objects of `analyze --format jsonl` or `track --format jsonl`, one a line.
    static func jsonLines(_ text: String, path: String) throws(Unreadable) -> [ReportFace] {
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
            guard let box = Self.box(x: x, y: y, width: width, height: height) else {
                throw Unreadable(description: "\(path): line \(number + 1): \(Self.badBox)")
            }
            var face = ReportFace(
                source: source, frame: JSONNumber.integer(object["frame"]), timestampMs: double(object["timestamp_ms"]),
                index: JSONNumber.integer(object["face"]) ?? 0, box: box)
            face.trackingID = JSONNumber.integer(object["tracking_id"])
            face.detectionScore = double(object["detection_score"])
            let euler = object["head_euler"] as? [String: Any]
            face.headEulerX = double(euler?["x"])
            face.headEulerY = double(euler?["y"])
            face.headEulerZ = double(euler?["z"])
            face.smiling = double(object["smiling_probability"])
            face.leftEyeOpen = double(object["left_eye_open_probability"])
            face.rightEyeOpen = double(object["right_eye_open_probability"])
            let absent = object["absent"] as? [String: Any] ?? [:]
            face.classified = ["smiling_probability", "left_eye_open_probability", "right_eye_open_probability"]
                .contains { key in JSONNumber.of(object[key]) != nil || (absent[key] as? String).map { $0 != "not_requested" } == true }
            face.quality = double(object["quality"])
            face.person = object["person"] as? String
            face.personDistance = double(object["person_distance"])
            face.personID = JSONNumber.integer(object["person_id"])
            if let landmarks = object["landmarks"] as? [String: Any] {
                for type in FaceLandmark.LandmarkType.allCases {
                    if let point = landmarks[type.snakeCaseName] as? [Any], point.count == 2,
                        let px = double(point[0]), let py = double(point[1])
                    {
                        face.landmarks.append(FaceLandmark(type: type, position: CGPoint(x: px, y: py)))
                    }
                }
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
