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

    @Test("a variable-frame-rate MKV and an edit-listed MOV read to their end are not reported")
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
            for video in [variable, edited] {
                let run = TrackCommandTests.track(["--no-reid", video])
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
