import FaceKit
import Foundation
import Testing

@testable import FaceKitArguments
@testable import FaceKitCLI

/// A face with every field set to a value that exercises rounding.
func sampleFace() -> Face {
    Face(
        frame: CGRect(x: 10.004, y: 20.5, width: 100, height: 99.999), headEulerAngleX: -0.001,
        headEulerAngleY: 12.345, headEulerAngleZ: -3.1,
        landmarks: [
            FaceLandmark(type: .leftEye, position: CGPoint(x: 40.126, y: 50)),
            FaceLandmark(type: .mouthBottom, position: CGPoint(x: 60, y: 90.5)),
        ],
        smilingProbability: 0.87654, leftEyeOpenProbability: nil, rightEyeOpenProbability: 1,
        absenceReasons: [.leftEyeOpen: .eyeNotVisible], detectionScore: 0.912345, quality: 0.73124)
}

@Suite("CSVFaceWriter")
struct CSVFaceWriterTests {
    static let fixedHeader =
        "source,frame,timestamp_ms,status,face,tracking_id,x,y,width,height,detection_score,confidence,head_euler_x,head_euler_y,head_euler_z,smiling_probability,left_eye_open_probability,right_eye_open_probability,smiling_probability_absent,left_eye_open_probability_absent,right_eye_open_probability_absent,quality,image_width,image_height,capture_time,failure"

    @Test("the header is the documented one without --landmarks")
    func headerWithoutLandmarks() {
        #expect(CSVFaceWriter.header(columns: FaceRecordColumns()).joined(separator: ",") == Self.fixedHeader)
    }

    @Test("--landmarks adds x and y columns for the 10 landmarks in order")
    func headerWithLandmarks() {
        let header = CSVFaceWriter.header(columns: FaceRecordColumns(landmarks: true)).joined(separator: ",")
        #expect(
            header == Self.fixedHeader
                + ",left_eye_x,left_eye_y,right_eye_x,right_eye_y,left_ear_x,left_ear_y,right_ear_x,right_ear_y,left_cheek_x,left_cheek_y,right_cheek_x,right_cheek_y,nose_base_x,nose_base_y,mouth_left_x,mouth_left_y,mouth_right_x,mouth_right_y,mouth_bottom_x,mouth_bottom_y"
        )
    }

    @Test("a source whose name is not UTF-8 is written with \\xHH for those bytes, reversibly")
    func sourceBytes() {
        let source = FilePathEncoding.string(fromPathBytes: Array("photos/caf".utf8) + [0xE9, 0x2E, 0x6A, 0x70, 0x67])
        let cells = CSVFaceWriter.cells(for: FaceRecord(source: source, index: 0, face: sampleFace()), columns: .init())
        #expect(cells[0] == #"photos/caf\xE9.jpg"#)
        #expect(FilePathEncoding.pathBytes(fromText: cells[0]) == FilePathEncoding.pathBytes(source))
    }

    @Test("contours add no columns")
    func contoursNoColumns() {
        #expect(CSVFaceWriter.header(columns: FaceRecordColumns(contours: true)).count == 26)
    }

    @Test("a still-image row leaves frame, timestamp, tracking ID and absent values empty, and says why each is absent")
    func stillRow() {
        let record = FaceRecord(source: "photos/a.jpg", index: 2, face: sampleFace())
        let line = CSVFaceWriter.line(CSVFaceWriter.cells(for: record, columns: FaceRecordColumns()))
        #expect(
            line
                == "photos/a.jpg,,,detected,2,,10,20.5,100,100,0.9123,0.9123,0,12.35,-3.1,0.8765,,1,,eye_not_visible,,0.7312,,,,\n")
    }

    @Test("the CSV's reasons are the ones JSON Lines gives under absent, column for key")
    func reasonsAsInJSONLines() throws {
        let face = Face(
            frame: CGRect(x: 0, y: 0, width: 10, height: 10),
            absenceReasons: [.smiling: .notRequested, .leftEyeOpen: .faceTooSmall, .rightEyeOpen: .landmarksImplausible])
        let record = FaceRecord(source: "a.jpg", index: 0, face: face)
        let header = CSVFaceWriter.header(columns: FaceRecordColumns())
        let cells = CSVFaceWriter.cells(for: record, columns: FaceRecordColumns())
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(JSONLinesFaceWriter.line(for: record, columns: .init()).utf8))
                as? [String: Any])
        let absent = try #require(json["absent"] as? [String: String])
        for (key, reason) in absent {
            #expect(cells[try #require(header.firstIndex(of: key + "_absent"))] == reason)
        }
        #expect(absent.count == 3)
    }

    @Test("landmark cells are empty for landmarks not computed")
    func landmarkCells() {
        let cells = CSVFaceWriter.cells(
            for: FaceRecord(source: "a", index: 0, face: sampleFace()), columns: FaceRecordColumns(landmarks: true))
        #expect(cells.count == 46)
        #expect(Array(cells[26...27]) == ["40.13", "50"])
        #expect(cells[28...43].allSatisfy { $0.isEmpty })
        #expect(Array(cells[44...45]) == ["60", "90.5"])
    }

    @Test("a video row carries frame, timestamp and tracking ID")
    func videoRow() {
        var face = sampleFace()
        face.trackingID = 7
        let cells = CSVFaceWriter.cells(
            for: FaceRecord(source: "v.mp4", frame: 12, timestampMilliseconds: 400.0004, index: 0, face: face),
            columns: FaceRecordColumns())
        #expect(Array(cells[0...5]) == ["v.mp4", "12", "400", "detected", "0", "7"])
    }

    @Test(
        "fields are quoted per RFC 4180 only when they need it",
        arguments: [
            ("plain/path.jpg", "plain/path.jpg"), ("a,b.jpg", "\"a,b.jpg\""),
            ("say \"hi\".jpg", "\"say \"\"hi\"\".jpg\""),
            ("line\nbreak.jpg", "\"line\nbreak.jpg\""), ("cr\r.jpg", "\"cr\r.jpg\""), ("", ""),
            ("ünïcode é.jpg", "ünïcode é.jpg"),
            ("tab\t.jpg", "tab\t.jpg"),
        ])
    func quoting(field: String, expected: String) {
        #expect(CSVFaceWriter.quoted(field) == expected)
    }

    @Test("the writer writes the header once and one line per record")
    func writer() {
        let output = StringOutput()
        let writer = CSVFaceWriter(columns: FaceRecordColumns(), output: output)
        writer.writeHeader()
        writer.write(FaceRecord(source: "a,b.jpg", index: 0, face: sampleFace()))
        let lines = output.text.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0] == Self.fixedHeader)
        #expect(lines[1].hasPrefix("\"a,b.jpg\",,,detected,0,"))
    }

    @Test("a photo without a face and an input that failed get a row of the table's width, every face cell empty")
    func facelessRows() {
        let columns = FaceRecordColumns(landmarks: true, people: true, points68: true)
        let width = CSVFaceWriter.header(columns: columns).count
        let noFace = CSVFaceWriter.cells(
            for: FacelessRecord(
                source: "b.jpg", status: .noFace,
                image: ImageFacts(width: 900, height: 916, captureTime: "2012-12-06T15:46:01")),
            columns: columns)
        #expect(noFace.count == width)
        #expect(Array(noFace[0...4]) == ["b.jpg", "", "", "no_face", ""])
        #expect(Array(noFace[22...25]) == ["900", "916", "2012-12-06T15:46:01", ""])
        #expect(noFace.enumerated().allSatisfy { ($0.offset == 0 || $0.offset == 3 || (22...24).contains($0.offset)) || $0.element.isEmpty })
        let failed = CSVFaceWriter.cells(
            for: FacelessRecord.failed("c,d.jpg", message: "c,d.jpg: not a readable image: empty file"), columns: columns)
        #expect(failed.count == width)
        #expect(failed[3] == "failed" && failed[25] == "not a readable image: empty file")
        #expect(CSVFaceWriter.line(failed).hasPrefix(#""c,d.jpg",,,failed,,"#))
    }

    @Test("a video frame's face the flow followed says so, its confidence the share of points followed")
    func followedRow() {
        var face = sampleFace()
        face.trackingID = 2
        face.followedPointShare = 0.87654
        let cells = CSVFaceWriter.cells(
            for: FaceRecord(source: "v.mp4", frame: 3, timestampMilliseconds: 100, index: 0, face: face), columns: .init())
        #expect(cells[3] == "followed")
        #expect(cells[10] == "0.9123" && cells[11] == "0.8765")  // the last detection's score, this frame's confidence
    }

    @Test("--points68 adds x_0 ... x_67 then y_0 ... y_67, empty for a point outside the picture")
    func points68Columns() {
        let columns = FaceRecordColumns(points68: true)
        let header = CSVFaceWriter.header(columns: columns)
        #expect(header.count == 26 + 136)
        #expect(Array(header[26...27]) == ["x_0", "x_1"] && header[93] == "x_67" && header[94] == "y_0" && header.last == "y_67")
        var face = sampleFace()
        face.points68 = (0..<68).map { (i: Int) -> CGPoint? in i == 5 ? nil : CGPoint(x: Double(i) + 0.125, y: 200 + Double(i)) }
        let cells = CSVFaceWriter.cells(for: FaceRecord(source: "a.jpg", index: 0, face: face), columns: columns)
        #expect(cells.count == header.count)
        #expect(cells[26] == "0.13" && cells[94] == "200")
        #expect(cells[26 + 5].isEmpty && cells[94 + 5].isEmpty)
        #expect(cells[93] == "67.13" && cells[161] == "267")
        // A face without the points (made by hand) has the columns, empty.
        let without = CSVFaceWriter.cells(for: FaceRecord(source: "a.jpg", index: 0, face: sampleFace()), columns: columns)
        #expect(without.count == header.count && without[26...].allSatisfy(\.isEmpty))
    }
}
