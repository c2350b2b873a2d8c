import FaceKit
import Foundation
import Testing

@testable import FaceKitArguments
@testable import FaceKitCLI

@Suite("JSONLinesFaceWriter")
struct JSONLinesFaceWriterTests {
    @Test(
        "strings escape quotes, backslashes and control characters",
        arguments: [
            ("a.jpg", #""a.jpg""#), ("say \"hi\"", #""say \"hi\"""#), (#"C:\x"#, #""C:\\x""#), ("a\nb", #""a\nb""#),
            ("a\rb\tc", #""a\rb\tc""#), ("\u{01}", #""\u0001""#), ("\u{1F}", #""\u001f""#), ("é/😀", "\"é/😀\""),
            ("\u{2028}", #""\u2028""#), ("/", #""/""#),
        ])
    func escaping(text: String, expected: String) {
        #expect(JSONLinesFaceWriter.string(text) == expected)
    }

    @Test("escaped strings read back unchanged", arguments: ["a\"b\\c\n\r\t\u{0}\u{7F}\u{2028}é😀", "", "plain"])
    func roundTrip(text: String) throws {
        let data = Data(("[" + JSONLinesFaceWriter.string(text) + "]").utf8)
        let array = try #require(try JSONSerialization.jsonObject(with: data) as? [String])
        #expect(array == [text])
    }

    @Test("a still-image line has the fixed keys in order, no video keys, null for absent values and the reasons")
    func stillLine() {
        let line = JSONLinesFaceWriter.line(
            for: FaceRecord(source: "a.jpg", index: 1, face: sampleFace()), columns: FaceRecordColumns())
        #expect(
            line
                == #"{"source":"a.jpg","status":"detected","face":1,"box":{"x":10,"y":20.5,"width":100,"height":100},"detection_score":0.9123,"confidence":0.9123,"head_euler":{"x":0,"y":12.35,"z":-3.1},"smiling_probability":0.8765,"left_eye_open_probability":null,"right_eye_open_probability":1,"absent":{"left_eye_open_probability":"eye_not_visible"},"quality":0.7312,"image_width":null,"image_height":null}"#
                + "\n")
    }

    @Test("landmarks list all 10 keys, null when absent; contours list those present")
    func landmarksAndContours() throws {
        var face = sampleFace()
        face.contours = [FaceContour(type: .noseBridge, points: [CGPoint(x: 1.005, y: 2), CGPoint(x: -3.5, y: 4)])]
        face.trackingID = 3
        let line = JSONLinesFaceWriter.line(
            for: FaceRecord(source: "v.mp4", frame: 4, timestampMilliseconds: 133.3333, index: 0, face: face),
            columns: FaceRecordColumns(landmarks: true, contours: true))
        #expect(line.hasSuffix("\n") && line.filter { $0 == "\n" }.count == 1)
        #expect(line.contains(#""frame":4,"timestamp_ms":133.333,"status":"detected","face":0,"tracking_id":3,"#))
        #expect(line.contains(#""landmarks":{"left_eye":[40.13,50],"right_eye":null,"#))
        #expect(line.contains(#""mouth_bottom":[60,90.5]}"#))
        #expect(
            line.contains(#""contours":{"nose_bridge":[[1,2],[-3.5,4]]}}"#)
                || line.contains(#""contours":{"nose_bridge":[[1.01,2],[-3.5,4]]}}"#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect((object["landmarks"] as? [String: Any])?.count == 10)
    }

    @Test("contours is an empty object for a face without contours when contours were requested")
    func emptyContours() {
        let line = JSONLinesFaceWriter.line(
            for: FaceRecord(source: "a", index: 0, face: Face(frame: .zero)), columns: FaceRecordColumns(contours: true)
        )
        #expect(line.hasSuffix(#","contours":{}}"# + "\n"))
        #expect(!line.contains("landmarks"))
    }

    @Test("a source whose name is not UTF-8 holds \\xHH for those bytes, which JSON escapes as \\\\xHH")
    func sourceBytes() throws {
        let source = FilePathEncoding.string(fromPathBytes: Array("caf".utf8) + [0xE9, 0x2E, 0x6A, 0x70, 0x67])
        let record = FaceRecord(source: source, index: 0, face: sampleFace())
        let line = JSONLinesFaceWriter.line(for: record, columns: .init())
        #expect(line.hasPrefix(#"{"source":"caf\\xE9.jpg","#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let text = try #require(object["source"] as? String)
        #expect(FilePathEncoding.pathBytes(fromText: text) == FilePathEncoding.pathBytes(source))
    }

    @Test("the writer writes no header")
    func noHeader() {
        let output = StringOutput()
        JSONLinesFaceWriter(columns: FaceRecordColumns(), output: output).writeHeader()
        #expect(output.text.isEmpty)
    }

    @Test("a photo without a face has source, status and size; an input that failed, source, status and failure")
    func facelessLines() throws {
        let noFace = JSONLinesFaceWriter.line(
            for: FacelessRecord(source: "b.jpg", status: .noFace, image: ImageFacts(width: 900, height: 916)))
        #expect(noFace == #"{"source":"b.jpg","status":"no_face","image_width":900,"image_height":916}"# + "\n")
        let frame = JSONLinesFaceWriter.line(
            for: FacelessRecord(
                source: "v.mp4", frame: 7, timestampMilliseconds: 280, status: .noFace,
                image: ImageFacts(width: 640, height: 480)))
        #expect(frame == #"{"source":"v.mp4","frame":7,"timestamp_ms":280,"status":"no_face","image_width":640,"image_height":480}"# + "\n")
        let failed = JSONLinesFaceWriter.line(for: FacelessRecord.failed("c.jpg", message: "c.jpg: cannot read file: No such file or directory"))
        #expect(failed == #"{"source":"c.jpg","status":"failed","failure":"cannot read file: No such file or directory"}"# + "\n")
    }

    @Test("capture_time comes only when the photo records one; points68 is 68 [x, y] or null")
    func captureTimeAndPoints() throws {
        var face = sampleFace()
        face.points68 = (0..<68).map { $0 == 0 ? nil : CGPoint(x: Double($0), y: 1.005) }
        let record = FaceRecord(
            source: "a.jpg", index: 0, face: face,
            image: ImageFacts(width: 910, height: 1137, captureTime: "2012-12-06T15:46:01.00"))
        let line = JSONLinesFaceWriter.line(for: record, columns: FaceRecordColumns(points68: true))
        #expect(line.contains(#""quality":0.7312,"image_width":910,"image_height":1137,"capture_time":"2012-12-06T15:46:01.00""#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let points = try #require(object["points68"] as? [Any])
        #expect(points.count == 68 && points[0] is NSNull)
        #expect((points[67] as? [Double]).map { $0[0] == 67 && abs($0[1] - 1) < 0.011 } == true)
        let without = JSONLinesFaceWriter.line(
            for: FaceRecord(source: "a.jpg", index: 0, face: sampleFace(), image: ImageFacts(width: 1, height: 1)),
            columns: .init())
        #expect(!without.contains("capture_time") && !without.contains("points68"))
    }
}
