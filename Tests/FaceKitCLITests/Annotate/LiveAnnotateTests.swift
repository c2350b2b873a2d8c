@testable import FaceKit
@testable import FaceKitCLI
import FaceKitTestSupport
import Foundation
import Testing

/// `facekit annotate` on live sources, end to end: the built executable drawing standard input
/// and a UDP stream that ffmpeg serves on the loopback interface into one copy, a stream that
/// stalls, and SIGINT.
@Suite(
    "annotate on live sources", .needsModels,
    .enabled(if: TestSupport.executable != nil, "the facekit executable was not found next to the test bundle"),
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "ffmpeg is not installed: run scripts/setup"))
struct LiveAnnotateTests {
    static let crossing = AnnotateCommandTests.crossing

    /// The frames of the video at `path`, read to its end.
    private static func frameCount(_ path: String) throws -> Int {
        let video = try VideoReader(contentsOfFile: path)
        var count = 0
        while try video.next() != nil { count += 1 }
        return count
    }

    /// The bytes of the copy being written in `folder` (its hidden temporary file), 0 before it
    /// exists. The Matroska muxer writes a cluster every 5 s of video, so it grows in steps.
    private static func bytesBeingWritten(in folder: String) -> Int {
        temporaryCopies(in: folder).compactMap {
            (try? FileManager.default.attributesOfItem(atPath: folder + "/" + $0))?[.size] as? Int
        }.max() ?? 0
    }

    private static func fileBeingWritten(in folder: String) -> Bool { !temporaryCopies(in: folder).isEmpty }

    private static func temporaryCopies(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            $0.hasPrefix(".") && $0.hasSuffix(".mkv")
        }
    }

    /// The faces annotate draws on crossing.mp4 read as a file, from its line on standard error.
    private static func facesDrawnFromFile(folder: String) throws -> String {
        let run = AnnotateCommandTests.annotate(["--output", folder + "/file", crossing])
        try #require(run.status == 0, "\(run.stderr)")
        let line = try #require(run.stderrLines.first { $0.contains("drawn") })
        return String(try #require(line.split(separator: ":").last)).trimmingCharacters(in: .whitespaces)
    }

    @Test("standard input: one copy, every frame drawn, the same faces as the file")
    func standardInput() throws {
        try TestSupport.withTemporaryFolder { folder in
            let stream = try LiveTrackTests.transportStream(in: folder)
            // Every frame analysed, so that the faces drawn are the file's, however slow the machine.
            let live = try LiveRun("annotate", ["--max-delay", LiveRun.unreachableDelay, "--output", folder + "/out", "-"])
            live.input.fileHandleForWriting.write(try Data(contentsOf: URL(fileURLWithPath: stream)))
            try live.input.fileHandleForWriting.close()
            #expect(live.finish() == 0, "\(live.stderr)")
            let copy = folder + "/out/stdin.mkv"
            #expect(live.lines == [copy])
            #expect(try Self.frameCount(copy) == 125)
            #expect(live.stderr.contains("\(copy): \(try Self.facesDrawnFromFile(folder: folder))"), "\(live.stderr)")
            #expect(live.stderr.contains("-: 125 frames read, 125 analysed, 0 skipped"), "\(live.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder + "/out")
            #expect(left == ["stdin.mkv"], "no temporary file is left: \(left)")
        }
    }

    @Test("a stream that stalls ends after --stall-timeout with its copy finished")
    func stalledStream() throws {
        try TestSupport.withTemporaryFolder { folder in
            let bytes = try Data(contentsOf: URL(fileURLWithPath: try LiveTrackTests.transportStream(in: folder)))
            let live = try LiveRun("annotate", ["--stall-timeout", "1.5", "--output", folder, "-"])
            live.input.fileHandleForWriting.write(bytes.prefix(bytes.count / 2))
            // The pipe stays open and silent: the stall, not its end, stops the run.
            let status = live.finish()
            try live.input.fileHandleForWriting.close()
            #expect(status == 0, "\(live.stderr)")
            #expect(live.stderr.contains("-: no data for 1.5 s (--stall-timeout): the stream stalled or stopped"), "\(live.stderr)")
            let frames = try Self.frameCount(folder + "/stdin.mkv")
            #expect(frames > 20 && frames < 125, "\(frames) frames in the copy")
        }
    }

    @Test("SIGINT ends a live annotate cleanly: the copy finished and readable, exit 0")
    func interrupted() throws {
        try TestSupport.withTemporaryFolder { folder in
            let bytes = try Data(contentsOf: URL(fileURLWithPath: try LiveTrackTests.transportStream(in: folder)))
            let live = try LiveRun("annotate", ["--stall-timeout", "60", "--output", folder, "-"])
            live.input.fileHandleForWriting.write(bytes.prefix(bytes.count / 2))
            // The copy's file is made once the stream opens; a signal during the first half or
            // after it, while the run waits for data that does not come, ends it the same way.
            live.wait { Self.fileBeingWritten(in: folder) }
            usleep(2_000_000)
            try #require(live.process.isRunning, "still reading when signalled: \(live.stderr)")
            kill(live.process.processIdentifier, SIGINT)
            #expect(live.finish() == 0, "\(live.stderr)")
            try live.input.fileHandleForWriting.close()
            #expect(live.stderr.contains("stopped by signal"), "\(live.stderr)")
            #expect(live.lines == [folder + "/stdin.mkv"])
            #expect(try Self.frameCount(folder + "/stdin.mkv") > 0)
        }
    }

    /// A machine slower than the stream's real time skips frames over `--max-delay`: a skipped
    /// frame is still written (with the marks of the last frame analysed), so the copy holds
    /// every frame read, whatever the machine.
    @Test("a UDP stream from ffmpeg -re: the copy grows while it plays, holds every frame read, and is finished when it stops")
    // crossing.mp4 three times over (15 s): the copy's first clusters are written while it plays.
    func udpStream() throws {
        try TestSupport.withTemporaryFolder { folder in
            let port = Int.random(in: 20_000..<40_000)
            let url = "udp://127.0.0.1:\(port)"
            let live = try LiveRun("annotate", ["--stall-timeout", "2", "--output", folder, url])
            let sender = Process()
            sender.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            sender.arguments = [
                "-v", "error", "-nostdin", "-re", "-stream_loop", "2", "-i", Self.crossing, "-c:v", "libx264", "-preset", "ultrafast", "-g", "10",
                "-an", "-f", "mpegts", url,
            ]
            sender.standardError = FileHandle.nullDevice
            usleep(1_500_000)  // the reader's models and socket
            try sender.run()
            live.wait { Self.bytesBeingWritten(in: folder) > 20_000 }
            #expect(sender.isRunning, "the copy was written only after the stream ended")
            sender.waitUntilExit()
            #expect(live.finish() == 0, "\(live.stderr)")
            let copy = folder + "/udp-127.0.0.1-\(port).mkv"
            #expect(live.lines == [copy], "\(live.stderr)")
            #expect(live.stderr.contains("stream stalled"), "\(live.stderr)")
            let tally = try #require(live.tally, "no closing line: \(live.stderr)")
            #expect(tally.read == tally.analysed + tally.skipped && tally.analysed >= 1, "\(tally)")
            #expect(tally.read > 100, "\(tally): most of the 375 frames sent")
            #expect(try Self.frameCount(copy) == tally.read, "every frame read is in the copy, analysed or not: \(tally)")
        }
    }

    @Test("a live source is refused with other inputs, --start, --known, --contours or a bad --max-delay", arguments: [
        ["-", AnnotateCommandTests.crossing], ["--start", "1", "-"], ["--known", "/tmp", "udp://127.0.0.1:9"],
        ["--contours", "/dev/video0"], ["--max-delay", "0", "-"],
    ])
    func refused(arguments: [String]) throws {
        try TestSupport.withTemporaryFolder { folder in
            let run = AnnotateCommandTests.annotate(["--output", folder] + arguments)
            #expect(run.status == 64, "\(run.stderr)")
            #expect(
                run.stderr.contains("live source") || run.stderr.contains("--max-delay")
                    || run.stderr.contains("cannot be combined with tracking"), "\(run.stderr)")
            let entries = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(entries.isEmpty, "\(entries)")
        }
    }

    @Test("an empty copy is reported once: a failure already said is not followed by 'no frame was analysed'")
    func emptyCopyReport() {
        var tally = LiveTally(source: "-")
        tally.framesRead = 3
        let failed = LiveAnnotate.nothingWritten(failure: "-: the frame's size differs", tally: tally, input: "-")
        #expect(failed.message == nil && failed.status == .failure)
        let skipped = LiveAnnotate.nothingWritten(failure: nil, tally: tally, input: "-")
        #expect(skipped.message == "-: not annotated: no frame was analysed before the stream ended")
        #expect(skipped.status == .failure)
        tally.framesRead = 0
        tally.end = .interrupted
        let stopped = LiveAnnotate.nothingWritten(failure: nil, tally: tally, input: "-")
        #expect(stopped.message == nil && stopped.status == .success)
    }

    @Test("the copy's name says where the stream came from")
    func copyNames() {
        #expect(LiveInput.copyName(for: .standardInput) == "stdin.mkv")
        #expect(LiveInput.copyName(for: .device("/dev/video2")) == "video2.mkv")
        #expect(LiveInput.copyName(for: .url("udp://127.0.0.1:5004")) == "udp-127.0.0.1-5004.mkv")
        #expect(LiveInput.copyName(for: .url("rtsp://cam.local/live/main?x=1")) == "rtsp-cam.local-live-main-x-1.mkv")
    }
}
