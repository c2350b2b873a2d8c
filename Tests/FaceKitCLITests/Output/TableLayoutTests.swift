import FaceKit
import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// Table layout 2: the CSV says why a probability is absent (`*_absent`), photos' JSON Lines
/// have no video keys. Layout 3: a row for every input (`status`), `confidence`, the image's size
/// and capture time. Tables of older layouts are still read, their journals never continued.
@Suite("table layout")
struct TableLayoutTests {
    static let layout1Header =
        "source,frame,timestamp_ms,face,tracking_id,x,y,width,height,detection_score,head_euler_x,head_euler_y,head_euler_z,smiling_probability,left_eye_open_probability,right_eye_open_probability,quality"

    @Test("report reads faces tables of layout 1 and 2 alike, by column name")
    func reportReadsBothLayouts() throws {
        let old = try CSVTable(text: Self.layout1Header + "\na.jpg,,,0,,1,2,30,40,0.9,0,0,0,0.8,,1,0.7\n")
        let record = FaceRecord(
            source: "a.jpg", index: 0,
            face: Face(
                frame: CGRect(x: 1, y: 2, width: 30, height: 40), smilingProbability: 0.8, rightEyeOpenProbability: 1,
                absenceReasons: [.leftEyeOpen: .eyeNotVisible], detectionScore: 0.9, quality: 0.7))
        let new = try CSVTable(
            text: CSVFaceWriter.line(CSVFaceWriter.header(columns: .init()))
                + CSVFaceWriter.line(CSVFaceWriter.cells(for: record, columns: .init())))
        for table in [old, new] {
            guard case .faces(let faces) = try ReportTable.csv(table, path: "t.csv") else {
                Issue.record("not read as faces")
                continue
            }
            #expect(faces.count == 1)
            #expect(faces[0].smiling == 0.8 && faces[0].leftEyeOpen == nil && faces[0].rightEyeOpen == 1)
            #expect(faces[0].quality == 0.7 && faces[0].classified)
        }
    }

    @Test("report reads a layout 3 table's faces and passes over its no_face and failed rows, CSV and JSON Lines")
    func reportSkipsFacelessRows() throws {
        let face = FaceRecord(
            source: "a.jpg", index: 0, face: Face(frame: CGRect(x: 1, y: 2, width: 30, height: 40), detectionScore: 0.9),
            image: ImageFacts(width: 640, height: 480))
        let noFace = FacelessRecord(source: "b.jpg", status: .noFace, image: ImageFacts(width: 640, height: 480))
        let failed = FacelessRecord.failed("c.jpg", message: "c.jpg: not a readable image: empty file")
        let columns = FaceRecordColumns()
        let csv = try CSVTable(
            text: CSVFaceWriter.line(CSVFaceWriter.header(columns: columns))
                + [CSVFaceWriter.cells(for: noFace, columns: columns), CSVFaceWriter.cells(for: face, columns: columns),
                   CSVFaceWriter.cells(for: failed, columns: columns)].map(CSVFaceWriter.line).joined())
        let jsonl = JSONLinesFaceWriter.line(for: noFace) + JSONLinesFaceWriter.line(for: face, columns: columns)
            + JSONLinesFaceWriter.line(for: failed)
        let fromJSON = try ReportTable.jsonLines(jsonl, path: "t.jsonl")
        guard case .faces(let fromCSV) = try ReportTable.csv(csv, path: "t.csv") else {
            Issue.record("not read as faces")
            return
        }
        for faces in [fromCSV, fromJSON] {
            #expect(faces.count == 1)
            #expect(faces.first?.source == "a.jpg" && faces.first?.box.width == 30)
        }
    }

    @Test("a classified table whose every probability is absent still counts as classified, by its reasons")
    func classifiedByReasons() throws {
        let face = Face(
            frame: CGRect(x: 1, y: 2, width: 30, height: 40),
            absenceReasons: [.smiling: .faceTooSmall, .leftEyeOpen: .faceTooSmall, .rightEyeOpen: .faceTooSmall])
        let table = try CSVTable(
            text: CSVFaceWriter.line(CSVFaceWriter.header(columns: .init()))
                + CSVFaceWriter.line(CSVFaceWriter.cells(for: FaceRecord(source: "a.jpg", index: 0, face: face), columns: .init())))
        guard case .faces(let faces) = try ReportTable.csv(table, path: "t.csv") else {
            Issue.record("not read as faces")
            return
        }
        #expect(faces.first?.classified == true)
    }

    @Test("a photo's JSON line has no frame, timestamp_ms or tracking_id key; a video frame's has all three")
    func videoKeysOnlyForVideo() throws {
        let photo = JSONLinesFaceWriter.line(
            for: FaceRecord(source: "a.jpg", index: 0, face: Face(frame: .zero)), columns: .init())
        for key in ["frame", "timestamp_ms", "tracking_id"] { #expect(!photo.contains("\"\(key)\""), "\(photo)") }
        var face = Face(frame: .zero)
        face.trackingID = 0
        let frame = JSONLinesFaceWriter.line(
            for: FaceRecord(source: "v.mp4", frame: 0, timestampMilliseconds: 0, index: 0, face: face), columns: .init())
        #expect(frame.hasPrefix(#"{"source":"v.mp4","frame":0,"timestamp_ms":0,"status":"detected","face":0,"tracking_id":0,"#))
    }

    @Test(
        "a run interrupted under an older layout is not continued with rows of this one", .needsModels,
        arguments: [
            // The journal a facekit of layout 1 wrote: no tableLayout.
            (nil, "table layout 1 (before the _absent columns)"),
            // Layout 2: no row for an input without a face.
            (2, "table layout 2"),
        ] as [(Int?, String)])
    func olderJournalNotResumed(layout: Int?, phrase: String) throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try PhotoCollectionFixture.make(in: folder)
            let output = folder + "/faces.csv"
            _ = try PhotoCollectionFixture.analyze(["--output", output, photos], stopAfter: 1)
            let journal = try String(contentsOfFile: output + ".journal", encoding: .utf8)
            let current = "\"table_layout\":\(CSVFaceWriter.tableLayout)"
            #expect(CSVFaceWriter.tableLayout == 3)
            #expect(journal.contains(current), "\(journal)")
            let older =
                if let layout {
                    journal.replacingOccurrences(of: current, with: "\"table_layout\":\(layout)")
                } else {
                    journal.replacingOccurrences(of: "," + current, with: "").replacingOccurrences(of: current + ",", with: "")
                }
            try older.write(toFile: output + ".journal", atomically: false, encoding: .utf8)
            let run = PhotoCollectionFixture.analyze(["--resume", "--output", output, photos])
            #expect(run.status == 64)
            #expect(
                run.stderr.contains("(interrupted run: \(phrase); this run: table layout 3)"), "\(run.stderr)")
        }
    }
}
