import FaceKit
import FaceKitTestSupport
import Foundation
import Testing

/// "Stopped decoding" is said of a video whose data stopped decoding, and only of one: the frame
/// count alone misleads where frames have no fixed rate or an edit list hides some.
@Suite("The end of a video", .needsModels)
struct VideoEndTests {
    static let crossing = TrackCommandTests.crossing

    private static func frames(_ run: TestSupport.Run) -> Set<String> {
        Set(TrackCommandTests.rows(run).map { $0[1] })
    }

    @Test(
        "a variable-frame-rate MKV, an edit-listed MOV and a late-starting MKV read to their end are not reported",
        .enabled(if: TestSupport.executable != nil, "the facekit executable was not found next to the test bundle"))
    func readToTheirEnd() throws {
        try TestSupport.withTemporaryFolder { folder in
            // The first 60 frames at 25 a second, the rest three times as far apart: Matroska
            // keeps no count, and OpenCV's estimate (duration x rate) is about twice the frames.
            let variable = folder + "/variable.mkv"
            try TestSupport.ffmpeg([
                "-i", Self.crossing, "-vf", "setpts='if(lt(N,60),N,60+(N-60)*3)/25/TB'", "-fps_mode", "vfr",
                "-c:v", "libx264", "-preset", "ultrafast", variable,
            ])
            // Cut 0.3 s into the clip without re-encoding: the MOV holds the frames from the
            // keyframe before, and its edit list hides them.
            let edited = folder + "/edited.mov"
            try TestSupport.ffmpeg(["-ss", "0.3", "-i", Self.crossing, "-c", "copy", edited])
            // A Matroska file whose first frame is at 0.5 s, and whose duration counts from 0.
            let late = folder + "/late.mkv"
            try TestSupport.ffmpeg(["-i", Self.crossing, "-c", "copy", "-output_ts_offset", "0.5", late])
            let models = try #require(TestSupport.modelDirectory)
            for video in [variable, edited, late] {
                let run = try TestSupport.runExecutable(["track", "--model-dir", models, "--no-reid", video])
                #expect(run.status == 0, "\(video): \(run.stderr)")
                #expect(run.stderr.isEmpty, "\(run.stderr)")
                #expect(Self.frames(run).count > 100, "\(video)")
            }
        }
    }

    @Test("an MP4 cut in half still says where it stopped")
    func truncated() throws {
        try TestSupport.withTemporaryFolder { folder in
            // The index first, so that half the file still opens.
            let whole = folder + "/whole.mp4"
            try TestSupport.ffmpeg(["-i", Self.crossing, "-c", "copy", "-movflags", "+faststart", whole])
            let data = try Data(contentsOf: URL(fileURLWithPath: whole))
            let cut = try TestSupport.makeFile(folder, "cut.mp4", contents: data.prefix(data.count / 2))
            let run = TrackCommandTests.track(["--no-reid", cut])
            #expect(run.status == 1)
            #expect(run.stderr.contains("\(cut): video stopped decoding at frame "), "\(run.stderr)")
        }
    }
}

extension VideoEndTests {
    @Test(
        "damaged H.264 that still decodes (grey blocks) is reported with its frames, and the rows kept",
        .enabled(if: TestSupport.executable != nil, "the facekit executable was not found next to the test bundle"))
    func damagedFrames() throws {
        try TestSupport.withTemporaryFolder { folder in
            // 32 bytes overwritten at 40% and 55% of the file: FFmpeg conceals the damage and
            // goes on, so OpenCV reads every frame.
            var data = try Data(contentsOf: URL(fileURLWithPath: Self.crossing))
            for fraction in [0.40, 0.55] {
                let at = Int(Double(data.count) * fraction)
                data.replaceSubrange(at..<at + 32, with: (0..<32).map { UInt8(0xA5 ^ $0) })
            }
            let damaged = try TestSupport.makeFile(folder, "damaged.mp4", contents: data)
            // In a process of its own: FFmpeg's errors are told apart only when one video is open.
            let models = try #require(TestSupport.modelDirectory)
            let clean = try TestSupport.runExecutable(["track", "--model-dir", models, "--no-reid", Self.crossing])
            try #require(clean.status == 0 && clean.stderr.isEmpty, "\(clean.stderr)")
            let run = try TestSupport.runExecutable(["track", "--model-dir", models, "--no-reid", damaged])
            #expect(run.status == 1)
            let line = try #require(run.stderrLines.first)
            #expect(line.hasPrefix("facekit: \(damaged): "), "\(line)")
            #expect(line.contains(" decoded with errors (damaged data"), "\(line)")
            #expect(line.contains("frames ") || line.contains("frame "), "\(line)")
            #expect(Self.frames(run).count > 100, "the rows of every frame are kept")
        }
    }
}

extension VideoEndTests {
    @Test("an edit-listed MOV's frames carry the container's times (from its first frame), 30 frames/s")
    func editListTimes() throws {
        try TestSupport.withTemporaryFolder { folder in
            let thirty = folder + "/thirty.mp4"
            try TestSupport.ffmpeg(["-i", Self.crossing, "-vf", "fps=30", "-c:v", "libx264", "-preset", "ultrafast", thirty])
            let edited = folder + "/edited.mov"
            try TestSupport.ffmpeg(["-ss", "0.3", "-i", thirty, "-c", "copy", edited])
            let probe = try TestSupport.runProcess(
                "/usr/bin/ffprobe",
                ["-v", "error", "-select_streams", "v", "-show_entries", "frame=pts_time", "-of", "csv=p=0", edited])
            let container = probe.stdout.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .init(charactersIn: ", "))) }
            try #require(container.count > 100, "\(probe.stderr)")
            let video = try VideoReader(contentsOfFile: edited)
            var times: [Double] = []
            while let frame = try video.next(decode: false) { times.append(frame.timestampMs) }
            #expect(times.count == container.count)
            for (index, (ours, theirs)) in zip(times, container).enumerated().prefix(10) {
                #expect(abs(ours - (theirs - container[0]) * 1000) < 1, "frame \(index): \(ours) ms, the container says \(theirs)")
            }
        }
    }
}
