import FaceKit
import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// `analyze` writes a row for every input, on the development photos: a photo without a face
/// says `no_face`, an input that failed says `failed` and why, so that "no face" is told from
/// "not analysed"; `group` and `report` read such tables and pass over those rows.
@Suite("analyze: a row for every input", .needsModels, .needsSharedData)
struct EveryInputRowTests {
    static let dogs = TestData.shared("photos/dlib-faces/dogs.jpg")
    static let mountain = TestData.shared("photos/pyfeat/free-mountain-vector-01.jpg")
    static let twoPeople = TestData.shared("photos/face_recognition/two_people.jpg")

    @Test("photos without a face get one no_face row each, with their size; the faces' rows are as before")
    func noFaceRows() throws {
        try TestSupport.withTemporaryFolder { folder in
            let missing = folder + "/missing.jpg"
            let run = TestSupport.analyze([Self.dogs, Self.twoPeople, missing, Self.mountain])
            #expect(run.status == 1)
            #expect(run.stderrLines == ["facekit: \(missing): cannot read file: No such file or directory"])
            let rows = run.stdoutLines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            #expect(rows.allSatisfy { $0.count == 26 }, "every row as wide as the header")
            let bySource = Dictionary(grouping: rows, by: { String($0[0]) })
            #expect(bySource[Self.dogs]?.map { Array($0[3...4]) } == [["no_face", ""]])
            #expect(bySource[Self.dogs]?.first.map { Array($0[22...25]) } == ["900", "916", "", ""])
            #expect(bySource[Self.mountain]?.map { String($0[3]) } == ["no_face"])
            #expect(bySource[Self.mountain]?.first.map { Array($0[22...23]) } == ["1920", "1080"])
            let faces = try #require(bySource[Self.twoPeople])
            #expect(faces.map { String($0[3]) } == ["detected", "detected"])
            #expect(faces.map { String($0[4]) } == ["0", "1"])
            #expect(faces.allSatisfy { Array($0[22...23]) == ["1126", "661"] })
            #expect(bySource[missing]?.map { Array($0[3...4]) + [$0[25]] }
                == [["failed", "", "cannot read file: No such file or directory"]])
            // Input order: the table says which input each row is about, one after the other.
            #expect(rows.map { String($0[0]) } == [Self.dogs, Self.twoPeople, Self.twoPeople, missing, Self.mountain])
        }
    }

    @Test("JSON Lines: a photo without a face is an object with source, status and size only")
    func noFaceLine() throws {
        let run = TestSupport.analyze(["--format", "jsonl", Self.dogs, Self.twoPeople])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdoutLines
        #expect(lines.count == 3)
        #expect(
            lines.first
                == #"{"source":"# + JSONLinesFaceWriter.string(Self.dogs)
                + #","status":"no_face","image_width":900,"image_height":916}"#)
        for line in lines.dropFirst() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["status"] as? String == "detected")
            #expect(object["image_width"] as? Int == 1126 && object["image_height"] as? Int == 661)
            #expect(object["detection_score"] as? Double == object["confidence"] as? Double)
        }
    }

    @Test("group and report read analyze's JSON Lines with a no_face line, grouping only the faces")
    func groupAndReportPassOver() throws {
        try TestSupport.withTemporaryFolder { folder in
            let table = folder + "/faces.jsonl"
            let analyze = TestSupport.analyze([
                "--descriptors", "--format", "jsonl", "--output", table, Self.dogs, Self.twoPeople,
            ])
            #expect(analyze.status == 0, "\(analyze.stderr)")
            let grouped = try DescriptorLines.read(table)
            #expect(grouped.faces.count == 2)
            #expect(grouped.faces.allSatisfy { $0.record.source == Self.twoPeople })
            let faces = try ReportTable.jsonLines(String(contentsOfFile: table, encoding: .utf8), path: table)
            #expect(faces.map(\.source) == [Self.twoPeople, Self.twoPeople])
        }
    }

    @Test("a video given to analyze fails with a row and a line that point to track")
    func videoPointsToTrack() throws {
        let clip = TestData.repository.appendingPathComponent("TestVideos/crossing.mp4").path
        let run = TestSupport.analyze([clip])
        #expect(run.status == 1)
        let reason = "not a readable image: unknown format or corrupt data; "
            + "it is named as a video: run facekit track \(clip)"
        #expect(run.stderrLines == ["facekit: \(clip): \(reason)"])
        #expect(run.stdoutLines.dropFirst() == ["\(clip),,,failed" + String(repeating: ",", count: 22) + reason])
    }
}
