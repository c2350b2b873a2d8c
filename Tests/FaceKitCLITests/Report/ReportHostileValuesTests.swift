import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// `facekit report` on track tables with values no run writes (issue 55): a probability of 1e18,
/// a time of 1e300, a frame of INT64_MIN. Run as the built executable, so that a trap fails the
/// test instead of ending the test process.
@Suite(
    "report: values out of range leave their row out",
    .enabled(if: TestSupport.executable != nil, "the facekit executable was not found next to the test bundle"))
struct ReportHostileValuesTests {
    static let clip = TestData.repository.appendingPathComponent("TestVideos/crossing.mp4").path
    static let header =
        "source,frame,timestamp_ms,face,tracking_id,x,y,width,height,detection_score,head_euler_y,"
        + "smiling_probability,left_eye_open_probability,right_eye_open_probability\n"

    /// A track table of crossing.mp4 from its ground truth (TestVideos/crossing.csv, frames 0-24:
    /// the astronaut as track 0, her twin as track 1), with the row of frame 10's astronaut
    /// given `value` in `column`; returns the table and that row's line.
    static func table(column: String, value: String) throws -> (text: String, line: Int) {
        let truth = try CSVTable(text: String(contentsOfFile: clip.replacingOccurrences(of: ".mp4", with: ".csv"), encoding: .utf8))
        var text = header
        var line = 0
        for row in truth.rows where Int(row[0])! < 25 {
            let frame = Int(row[0])!, track = row[1] == "astronaut" ? 0 : 1
            var cells = [
                clip, String(frame), String(frame * 40), String(track), String(track), row[2], row[3], row[4], row[5],
                "0.9", "5", "0.8", "0.9", "0.9",
            ]
            if frame == 10 && track == 0 {
                cells[header.split(separator: ",").firstIndex { $0.hasPrefix(column) }!] = value
                line = text.split(separator: "\n").count + 1
            }
            text += cells.joined(separator: ",") + "\n"
        }
        return (text, line)
    }

    @Test(
        "report refuses the row, naming its line and column, and shows the rest (no trap, no endless axis)",
        arguments: [
            ("smiling_probability", "1e18"), ("smiling_probability", "1e300"), ("left_eye_open_probability", "-3"),
            ("timestamp_ms", "1e300"), ("timestamp_ms", "1e18"), ("frame", "-9223372036854775808"),
            ("tracking_id", "9223372036854775807"), ("head_euler_y", "1e300"),
        ])
    func outOfRange(column: String, value: String) throws {
        try TestSupport.withTemporaryFolder { folder in
            let table = folder + "/tracks.csv"
            let (text, line) = try Self.table(column: column, value: value)
            try text.write(toFile: table, atomically: true, encoding: .utf8)
            // A guard against a run that never ends, far beyond this one's length; nothing is timed.
            let run = try TestSupport.runExecutable(["report", "--output", folder + "/report", table], killedAfter: 300)
            #expect(run.status == 1, "exit \(run.status): \(run.stderr)")
            #expect(
                run.stderr.contains("facekit: \(table): line \(line): \(column) is \(value), not "),
                "the message names the line and column: \(run.stderr)")
            #expect(run.stderrLines.count == 1, "\(run.stderr)")
            let page = try String(contentsOfFile: folder + "/report/videos/video-0.html", encoding: .utf8)
            #expect(ReportFixture.count("<div class=\"lane\"", in: page) == 2, "both tracks are shown")
            let index = try String(contentsOfFile: folder + "/report/index.html", encoding: .utf8)
            #expect(index.contains("1 row left out for values out of range"))
            #expect(try ReportFixture.brokenLinks(in: folder + "/report") == [])
        }
    }

    @Test("JSON Lines: a probability of 1e300 and a frame of INT64_MIN leave their lines out, the rest is read")
    func jsonLines() throws {
        let line = #"{"source":"c.mp4","frame":0,"timestamp_ms":0,"face":0,"tracking_id":0,"box":{"x":1,"y":2,"width":30,"height":40},"smiling_probability":0.5}"#
        let text = [
            line, line.replacingOccurrences(of: "0.5", with: "1e300"),
            line.replacingOccurrences(of: #""frame":0"#, with: #""frame":-9223372036854775808"#),
            line.replacingOccurrences(of: "0.5}", with: #"0.5,"head_euler":{"x":0,"y":"left","z":0}}"#),
        ].joined(separator: "\n")
        let skipped = ReportTable.SkippedRows()
        let faces = try ReportTable.jsonLines(text, path: "t.jsonl", skipped: skipped)
        #expect(faces.count == 1 && faces.first?.smiling == 0.5)
        #expect(
            skipped.messages == [
                "t.jsonl: line 2: smiling_probability is 1e+300, not a probability from 0 to 1",
                "t.jsonl: line 3: frame is -9223372036854775808, not a frame number from 0",
                "t.jsonl: line 4: head_euler.y is \"left\", not an angle from -180 to 180 degrees",
            ])
        // Without a place for skipped rows, the first refuses the table.
        #expect(throws: ReportTable.Unreadable.self) { try ReportTable.jsonLines(text, path: "t.jsonl") }
    }

    @Test("people.csv and track --summary rows out of range are left out too; display helpers never trap")
    func otherTables() throws {
        let people = "person_id,name,faces,best_source,best_frame,best_quality\n0,,2,a.jpg,,0.8\n1,,2,b.jpg,-5,0.8\n2,,1e300,c.jpg,,0.5\n"
        let skipped = ReportTable.SkippedRows()
        guard case .people(let rows) = try ReportTable.csv(text: people, path: "p.csv", skipped: skipped) else {
            Issue.record("not read as people")
            return
        }
        #expect(rows.map(\.personID) == [0])
        #expect(skipped.messages == [
            "p.csv: line 3: best_frame is -5, not a frame number from 0", "p.csv: line 4: faces is 1e300, not a count from 0",
        ])
        let summary = "source,tracking_id,first_frame,blinks\nc.mp4,0,0,2\nc.mp4,1,0,-9223372036854775808\n"
        guard case .trackSummary(let tracks) = try ReportTable.csv(text: summary, path: "s.csv", skipped: skipped) else {
            Issue.record("not read as a summary")
            return
        }
        #expect(tracks.map(\.trackingID) == [0] && skipped.messages.count == 3)
        #expect(HTMLText.percent(1e300) == "100%" && HTMLText.percent(.nan) == "-")
        #expect(HTMLText.time(milliseconds: 1e300) == HTMLText.time(milliseconds: 1e12))
    }
}
