import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitArguments
@testable import FaceKitCLI

/// `facekit track` over folders of videos, with `--shard` and `--resume`, and merged by
/// `facekit merge`.
@Suite("track over collections", .needsModels)
struct TrackCollectionTests {
    static let testVideos = TrackCommandTests.testVideos

    /// `folder/clips` with three of the test videos, one in a subfolder, and a file that is not
    /// a video; returns the folder and the videos in walk order.
    static func makeClips(in folder: String) throws -> (folder: String, videos: [String]) {
        let clips = folder + "/clips"
        for (name, clip) in [
            ("b.mp4", "crossing.mp4"), ("a/rotated.MP4", "crossing-rotated.mp4"), ("c.mp4", "leave-reenter.mp4"),
        ] {
            try TestSupport.makeFile(
                clips, name, contents: Data(contentsOf: URL(fileURLWithPath: testVideos + "/" + clip)))
        }
        try TestSupport.makeFile(clips, "notes.txt", contents: Data("not a video".utf8))
        return (clips, ["a/rotated.MP4", "b.mp4", "c.mp4"].map { clips + "/" + $0 })
    }

    /// Options that keep these runs short: every 5th frame.
    static let quick = ["--every", "5", "--quiet"]

    static func track(_ arguments: [String]) -> TestSupport.Run { TrackCommandTests.track(Self.quick + arguments) }

    /// Runs `facekit track` in process, stopped as a kill would stop it after `stopAfterFrames`
    /// analysed frames.
    static func track(_ arguments: [String], stopAfterFrames: Int) throws -> TestSupport.Run {
        let out = StringOutput()
        let err = StringOutput()
        let command = try #require(
            try TrackCommand.parse(
                ["--model-dir", TestSupport.modelDirectory ?? "/nonexistent"] + Self.quick + arguments))
        try command.validate()
        let status = try command.run(
            CommandContext(stdout: out, stderr: err), hooks: TrackHooks(stopAfterFrames: stopAfterFrames))
        return TestSupport.Run(status: status.rawValue, stdout: out.text, stderr: err.text)
    }

    /// The `source` and `tracking_id` cells of each row that holds a face.
    static func sourcesAndIDs(_ table: String) -> [(source: String, id: Int)] {
        table.split(separator: "\n").dropFirst().compactMap { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            guard cells[3] == "detected" || cells[3] == "followed" else { return nil }
            return (String(cells[0]), Int(cells[5])!)
        }
    }

    @Test("a folder gives its videos in path order, other files skipped, each video's IDs from 0")
    func folder() throws {
        try TestSupport.withTemporaryFolder { folder in
            let (clips, videos) = try Self.makeClips(in: folder)
            let run = Self.track([clips])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == Self.track(videos).stdout)
            let rows = Self.sourcesAndIDs(run.stdout)
            var sources: [String] = []
            for row in rows where sources.last != row.source { sources.append(row.source) }
            #expect(sources == videos)
            for video in videos {
                let ids = Set(rows.filter { $0.source == video }.map(\.id))
                #expect(ids.min() == 0, "\(video): \(ids.sorted())")
                #expect(ids.count >= 2, "two people in each clip: \(video): \(ids.sorted())")
            }
        }
    }

    @Test("a video in a shard has the rows it has in the unsharded run, and the shards merge into that run")
    func shards() throws {
        try TestSupport.withTemporaryFolder { folder in
            let (clips, _) = try Self.makeClips(in: folder)
            let whole = Self.track(["--landmarks", clips])
            var files: [String] = []
            for k in 1...2 {
                let file = "\(folder)/faces-\(k).csv"
                let run = Self.track(["--landmarks", "--shard", "\(k)/2", "--resume", "--output", file, clips])
                #expect(run.status == 0, "\(run.stderr)")
                files.append(file)
            }
            // Three videos in two shards: one, then two; a video is never split.
            #expect(Set(Self.sourcesAndIDs(try String(contentsOfFile: files[0], encoding: .utf8)).map(\.source)).count == 1)
            let status = StatusCommandTests.status(files)
            #expect(status.stdoutLines[1].hasPrefix("1/2    1 of 1 videos"), "\(status.stdout)")
            let merged = TestSupport.run(["merge"] + files)
            #expect(merged.status == 0, "\(merged.stderr)")
            #expect(merged.stdout == whole.stdout)
            // Outputs of track and analyze are not parts of one table.
            let photos = try PhotoCollectionFixture.make(in: folder)
            let analysed = folder + "/photos-1.csv"
            _ = PhotoCollectionFixture.analyze(["--shard", "1/2", "--output", analysed, photos])
            let mixed = TestSupport.run(["merge", analysed, files[1]])
            #expect(mixed.status == 1)
            #expect(
                mixed.stderr.contains("\(files[1]): written by facekit track, but \(analysed) by facekit analyze"),
                "\(mixed.stderr)")
        }
    }

    @Test(
        "a run stopped part way through a video and resumed writes exactly the file of an uninterrupted run",
        arguments: [3, 40])
    func resume(stopAfterFrames: Int) throws {
        try TestSupport.withTemporaryFolder { folder in
            let (clips, videos) = try Self.makeClips(in: folder)
            let whole = Self.track(["--format", "jsonl", clips])
            let output = folder + "/faces.jsonl"
            let stopped = try Self.track(["--format", "jsonl", "--output", output, clips], stopAfterFrames: stopAfterFrames)
            #expect(stopped.status == 1)
            #expect(!FileManager.default.fileExists(atPath: output))
            // 25 frames analysed per video: the stop comes in the first video, or in the second.
            let journal = try String(contentsOfFile: output + ".journal", encoding: .utf8)
            #expect(journal.split(separator: "\n").count == 1 + stopAfterFrames / 25, "\(journal)")
            if stopAfterFrames > 25 { #expect(journal.contains("\"last_path\":\"\(videos[0])\"")) }
            let resumed = Self.track(["--format", "jsonl", "--resume", "--output", output, clips])
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(try String(contentsOfFile: output, encoding: .utf8) == whole.stdout)
            #expect(try PhotoCollectionFixture.listing(folder) == ["clips", "faces.jsonl", "faces.jsonl.journal"])
        }
    }

    @Test("a resume with other options is refused, naming them; a failed video counts as done")
    func resumeChecks() throws {
        try TestSupport.withTemporaryFolder { folder in
            let (clips, _) = try Self.makeClips(in: folder)
            try TestSupport.makeFile(clips, "a/broken.mp4", contents: Data("not a video".utf8))
            let output = folder + "/faces.csv"
            let stopped = try Self.track(["--output", output, clips], stopAfterFrames: 30)
            #expect(stopped.stderrLines.count == 1 && stopped.stderr.hasPrefix("facekit: \(clips)/a/broken.mp4: "))
            let other = Self.track(["--every", "2", "--no-reid", "--resume", "--output", output, clips])
            #expect(other.status == 64)
            #expect(
                other.stderr.contains("(interrupted run: --every 5, no --no-reid; this run: --every 2, --no-reid)"),
                "\(other.stderr)")
            let resumed = Self.track(["--resume", "--output", output, clips])
            #expect(resumed.status == 1, "the failed video still counts")
            #expect(resumed.stderr.isEmpty, "it is not reported again: \(resumed.stderr)")
            let whole = Self.track([clips])
            #expect(try String(contentsOfFile: output, encoding: .utf8) == whole.stdout)
        }
    }

    @Test(
        "--shard and --resume are checked as for analyze; --summary cannot be resumed",
        arguments: [
            (["--shard", "3/2", "a.mp4"], "Error: The value '3/2' is invalid for '--shard <k/n>'"),
            (["--resume", "a.mp4"], "Error: '--resume' needs '--output <file>'"),
            (
                ["--resume", "--output", "f.csv", "--summary", "t.csv", "a.mp4"],
                "Error: '--summary' cannot be combined with '--resume'"
            ),
        ])
    func usageErrors(arguments: [String], message: String) {
        let run = TrackCommandTests.track(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
    }
}
