import FaceKitTestSupport
import Foundation
import Synchronization
import Testing

/// `facekit track` on live sources, end to end: the built executable reading standard input and
/// a UDP stream that ffmpeg serves on the loopback interface, a stream that stalls, and SIGTERM.
@Suite(
    "track on live sources", .needsModels,
    .enabled(if: TestSupport.executable != nil, "the facekit executable was not found next to the test bundle"),
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "ffmpeg is not installed: run scripts/setup"))
struct LiveTrackTests {
    static let crossing = AnnotateCommandTests.crossing

    /// crossing.mp4 (125 frames, two faces) as MPEG-TS, which a pipe can carry.
    static func transportStream(in folder: String) throws -> String {
        let stream = folder + "/crossing.ts"
        try TestSupport.ffmpeg(["-i", crossing, "-c:v", "copy", "-an", "-f", "mpegts", stream])
        return stream
    }

    /// The rows of a CSV table without the source column (a file's path, or `-`).
    private static func rowsWithoutSource(_ table: String) -> [String] {
        table.split(separator: "\n").dropFirst().map { $0.split(separator: ",", maxSplits: 1).last.map(String.init) ?? "" }
    }

    @Test("standard input: the same rows as the file, written as the frames come")
    func standardInput() throws {
        try TestSupport.withTemporaryFolder { folder in
            let stream = try Self.transportStream(in: folder)
            let fromFile = try TestSupport.runExecutable(
                ["track", "--model-dir", try #require(TestSupport.modelDirectory), Self.crossing])
            try #require(fromFile.status == 0, "\(fromFile.stderr)")

            // No frame may be skipped for the rows to be the file's, however slow the machine.
            let live = try LiveRun("track", ["--max-delay", LiveRun.unreachableDelay, "-"])
            let bytes = try Data(contentsOf: URL(fileURLWithPath: stream))
            // The first half, then a pause: rows for it must come before the rest is sent.
            live.input.fileHandleForWriting.write(bytes.prefix(bytes.count / 2))
            live.wait { live.lines.count > 20 }
            #expect(live.lines.count > 20, "no rows while the stream is open: \(live.stderr)")
            live.input.fileHandleForWriting.write(bytes.dropFirst(bytes.count / 2))
            try live.input.fileHandleForWriting.close()
            #expect(live.finish() == 0, "\(live.stderr)")
            #expect(live.unterminated.isEmpty)
            let rows = live.lines.dropFirst().map { $0.split(separator: ",", maxSplits: 1).last.map(String.init) ?? "" }
            #expect(live.lines.first == fromFile.stdoutLines.first, "the same header")
            #expect(rows == Self.rowsWithoutSource(fromFile.stdout), "the same faces, IDs and timestamps as the file")
            #expect(live.lines.dropFirst().allSatisfy { $0.hasPrefix("-,") }, "rows name the source '-'")
            #expect(live.stderr.contains("-: 125 frames read, 125 analysed, 0 skipped"), "\(live.stderr)")
        }
    }

    @Test("a stream that stops sending ends after --stall-timeout with a named message, its rows kept")
    func stalledStream() throws {
        try TestSupport.withTemporaryFolder { folder in
            let bytes = try Data(contentsOf: URL(fileURLWithPath: try Self.transportStream(in: folder)))
            // Frames skipped on a loaded machine would leave fewer rows than the stall needs.
            let live = try LiveRun("track", [
                "--stall-timeout", "1.5", "--max-delay", LiveRun.unreachableDelay, "--summary", folder + "/tracks.csv",
                "--output", folder + "/faces.csv", "-",
            ])
            live.input.fileHandleForWriting.write(bytes.prefix(bytes.count / 2))
            // The pipe stays open and silent: the stall, not its end, stops the run.
            let status = live.finish()
            try live.input.fileHandleForWriting.close()
            #expect(status == 0, "\(live.stderr)")
            #expect(live.stderr.contains("-: no data for 1.5 s (--stall-timeout): the stream stalled or stopped"), "\(live.stderr)")
            #expect(live.stderr.contains("stream stalled"), "\(live.stderr)")
            let rows = try String(contentsOfFile: folder + "/faces.csv", encoding: .utf8)
            #expect(rows.hasSuffix("\n") && rows.split(separator: "\n").count > 20, "the rows are kept in --output")
            let summary = try String(contentsOfFile: folder + "/tracks.csv", encoding: .utf8)
            #expect(summary.split(separator: "\n").count >= 2, "the summary is written: \(summary)")
        }
    }

    @Test("SIGTERM or SIGINT ends a live run cleanly: rows complete, summary written, exit 0", arguments: [SIGTERM, SIGINT])
    func signalled(signal: Int32) throws {
        try TestSupport.withTemporaryFolder { folder in
            let bytes = try Data(contentsOf: URL(fileURLWithPath: try Self.transportStream(in: folder)))
            let live = try LiveRun("track", [
                "--format", "jsonl", "--max-delay", LiveRun.unreachableDelay, "--summary", folder + "/tracks.csv", "-",
            ])
            live.input.fileHandleForWriting.write(bytes.prefix(bytes.count / 2))
            // Once the first half is analysed, the run waits for data that does not come.
            live.wait { live.lines.count > 20 }
            usleep(500_000)
            try #require(live.process.isRunning, "still reading when signalled: \(live.stderr)")
            kill(live.process.processIdentifier, signal)
            #expect(live.finish() == 0, "\(live.stderr)")
            try live.input.fileHandleForWriting.close()
            #expect(live.stderr.contains("stopped by signal"), "\(live.stderr)")
            #expect(live.unterminated.isEmpty && live.lines.count > 20)
            for line in live.lines {
                #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "a complete row: \(line)")
            }
            let summary = try String(contentsOfFile: folder + "/tracks.csv", encoding: .utf8)
            #expect(summary.split(separator: "\n").count >= 2, "the summary is written: \(summary)")
        }
    }

    /// Whether this process ignores SIGHUP (started by `nohup`), which its children would inherit.
    static var hangUpIgnored: Bool {
        var action = sigaction()
        sigaction(SIGHUP, nil, &action)
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    @Test(
        "SIGHUP (the terminal or SSH session gone) ends a live run with --output as SIGTERM does: --output written, no hidden file left",
        .enabled(if: !hangUpIgnored, "this test process ignores SIGHUP (nohup), and so would facekit"),
        arguments: [SIGHUP, SIGTERM])
    func hangUpWithOutput(signal: Int32) throws {
        try TestSupport.withTemporaryFolder { folder in
            let bytes = try Data(contentsOf: URL(fileURLWithPath: try Self.transportStream(in: folder)))
            let output = folder + "/faces.csv"
            let live = try LiveRun("track", [
                "--max-delay", LiveRun.unreachableDelay, "--summary", folder + "/tracks.csv", "--output", output, "-",
            ])
            live.input.fileHandleForWriting.write(bytes.prefix(bytes.count / 2))
            // Rows go to a hidden temporary file until the run ends: once it holds rows, the run
            // is analysing, and after the first half it waits for data that does not come.
            func hiddenBytes() -> Int {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                return names.filter { $0.hasPrefix(".") }.compactMap {
                    (try? FileManager.default.attributesOfItem(atPath: folder + "/" + $0))?[.size] as? Int
                }.reduce(0, +)
            }
            live.wait { hiddenBytes() > 2000 }
            try #require(hiddenBytes() > 2000, "no rows in a hidden file while the stream is open: \(live.stderr)")
            usleep(500_000)
            try #require(live.process.isRunning, "still reading when signalled: \(live.stderr)")
            kill(live.process.processIdentifier, signal)
            let status = live.finish()
            try live.input.fileHandleForWriting.close()
            #expect(status == 0, "\(live.stderr)")
            #expect(live.stderr.contains("stopped by signal"), "\(live.stderr)")
            let rows = try String(contentsOfFile: output, encoding: .utf8)
            #expect(rows.hasSuffix("\n") && rows.split(separator: "\n").count > 1, "the rows are in --output: \(rows)")
            let summary = try String(contentsOfFile: folder + "/tracks.csv", encoding: .utf8)
            #expect(summary.split(separator: "\n").count >= 2, "the summary is written: \(summary)")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
                    "crossing.ts", "faces.csv", "tracks.csv",
                ], "no hidden temporary file left")
        }
    }

    /// A UDP stream comes in real time, so a machine slower than that rightly skips frames over
    /// `--max-delay` (the default, 1 s): what is asserted is what skipping promises, not that
    /// every frame is analysed.
    @Test("a UDP stream from ffmpeg -re: rows arrive while it plays, a row for each frame analysed, and its end is a stall")
    func udpStream() throws {
        try TestSupport.withTemporaryFolder { folder in
            let port = Int.random(in: 20_000..<40_000)
            let url = "udp://127.0.0.1:\(port)"
            let live = try LiveRun("track", ["--stall-timeout", "2", "--format", "jsonl", url])
            // Keyframes every 10 frames, so that frames sent before the reader listened cost little.
            let sender = Process()
            sender.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            sender.arguments = [
                "-v", "error", "-nostdin", "-re", "-i", Self.crossing, "-c:v", "libx264", "-preset", "ultrafast", "-g", "10",
                "-an", "-f", "mpegts", url,
            ]
            sender.standardError = FileHandle.nullDevice
            usleep(1_500_000)  // the reader's models and socket
            try sender.run()
            live.wait { live.lines.count >= 10 }
            #expect(sender.isRunning, "rows came only after the stream ended")
            sender.waitUntilExit()
            #expect(live.finish() == 0, "\(live.stderr)")
            #expect(live.lines.allSatisfy { $0.contains("\"source\":\"\(url)\"") })
            #expect(live.stderr.contains("stream stalled"), "\(live.stderr)")
            // Every frame read is analysed or counted skipped; every frame analysed has its rows
            // (a face each, or one no_face row), in order; a skipped frame has none.
            let tally = try #require(live.tally, "no closing line: \(live.stderr)")
            #expect(tally.read == tally.analysed + tally.skipped, "\(tally)")
            #expect(tally.analysed >= 10, "\(tally)")
            let frames = try live.lines.map { line in
                let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
                return try #require(row["frame"] as? Int, "\(line)")
            }
            #expect(frames == frames.sorted(), "rows in frame order")
            #expect(Set(frames).count == tally.analysed, "\(Set(frames).count) frames with rows, \(tally)")
        }
    }

    @Test("a live source is refused with --resume, --shard, --known or other inputs", arguments: [
        ["--resume", "--output", "/tmp/never.csv", "-"], ["--shard", "1/2", "-"], ["-", AnnotateCommandTests.crossing],
        ["--known", "/tmp", "udp://127.0.0.1:9"], ["--max-delay", "0", "-"],
    ])
    func refused(arguments: [String]) {
        let run = TestSupport.run(["track"] + arguments)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("live source") || run.stderr.contains("--max-delay"), "\(run.stderr)")
    }
}
