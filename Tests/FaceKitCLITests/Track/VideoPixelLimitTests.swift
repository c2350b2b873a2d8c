import FaceKit
import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// Video frames have the pixel limit photos have (`--max-pixels`, by default
/// `FaceImage.defaultMaxPixels`, 100 million): a video of larger frames is refused by name before
/// a frame is decoded, and the run goes on.
@Suite("the pixel limit of video frames", .needsModels)
struct VideoPixelLimitTests {
    /// A YUV4MPEG2 stream that declares `width` x `height` frames and holds the start of one:
    /// its header alone gives FFmpeg the size.
    static func declaringFrames(width: Int, height: Int) -> Data {
        Data("YUV4MPEG2 W\(width) H\(height) F25:1 Ip A1:1 C420jpeg\nFRAME\n".utf8) + Data(repeating: 128, count: 65536)
    }

    @Test("a video of 12000x12000 frames is refused by name, and the next video is tracked")
    func overTheLimit() throws {
        try TestSupport.withTemporaryFolder { folder in
            let large = try TestSupport.makeFile(folder, "large.y4m", contents: Self.declaringFrames(width: 12000, height: 12000))
            let run = TrackCommandTests.track(["--every", "5", "--quiet", large, TrackCommandTests.crossing])
            #expect(run.status == 1)
            #expect(
                run.stderrLines == [
                    "facekit: \(large): image too large: frames of 12000x12000 pixels are over the limit of 100000000"
                ], "\(run.stderr)")
            // The refused video's one row says so (issue 54's `failed` row); the next video's rows follow.
            let table = try CSVTable(text: run.stdout)
            try #require(table.column("status") != nil && table.column("failure") != nil, "\(table.header)")
            let rows = table.records
            let refused = rows.filter { $0["source"] == large }
            #expect(refused.map { $0["status"] } == ["failed"])
            #expect(refused.first?["failure"]?.hasPrefix("image too large") == true, "\(refused)")
            let tracked = rows.filter { $0["source"] == TrackCommandTests.crossing }
            #expect(!tracked.isEmpty && tracked.count == rows.count - 1)
        }
    }

    @Test("--max-pixels lowers the limit for track, annotate and group: the 640x360 test clip refused under 230,000 pixels, tracked at its own size")
    func optionLowersTheLimit() throws {
        let message = "facekit: \(TrackCommandTests.crossing): image too large: frames of 640x360 pixels are over the limit of 230000"
        let refused = TrackCommandTests.track(["--every", "10", "--quiet", "--max-pixels", "230000", TrackCommandTests.crossing])
        #expect(refused.status == 1)
        #expect(refused.stderrLines == [message], "\(refused.stderr)")
        #expect(try CSVTable(text: refused.stdout).records.map { $0["status"] } == ["failed"])
        let exact = TrackCommandTests.track(["--every", "10", "--quiet", "--max-pixels", "230400", TrackCommandTests.crossing])
        #expect(exact.status == 0, "\(exact.stderr)")
        #expect(try CSVTable(text: exact.stdout).records.contains { $0["status"] == "detected" })
        try TestSupport.withTemporaryFolder { folder in
            let annotated = AnnotateCommandTests.annotate(
                ["--max-pixels", "230000", "--output", folder + "/out", TrackCommandTests.crossing])
            #expect(annotated.status == 1)
            #expect(annotated.stderr.contains("frames of 640x360 pixels are over the limit of 230000"), "\(annotated.stderr)")
            let grouped = TestSupport.run([
                "group", "--model-dir", TestSupport.modelDirectory ?? "/nonexistent", "--max-pixels", "230000",
                "--output", folder + "/people", TrackCommandTests.crossing,
            ])
            #expect(grouped.stderr.contains("frames of 640x360 pixels are over the limit of 230000"), "\(grouped.stderr)")
        }
        #expect(TrackCommandTests.track(["--max-pixels", "0", TrackCommandTests.crossing]).status == 64)
    }

    @Test("the limit is the caller's: the test clip refused under 1000 pixels, read under its own size")
    func callersLimit() throws {
        #expect(throws: FaceKitError.self) { try VideoReader(contentsOfFile: TrackCommandTests.crossing, maxPixels: 1000) }
        do {
            _ = try VideoReader(contentsOfFile: TrackCommandTests.crossing, maxPixels: 1000)
        } catch {
            #expect(error.description.hasSuffix("pixels are over the limit of 1000"), "\(error)")
            #expect(error.description.contains("image too large: frames of "), "\(error)")
        }
        let video = try VideoReader(contentsOfFile: TrackCommandTests.crossing)
        let exact = try VideoReader(contentsOfFile: TrackCommandTests.crossing, maxPixels: video.width * video.height)
        #expect(try exact.next()?.image != nil)
    }
}
