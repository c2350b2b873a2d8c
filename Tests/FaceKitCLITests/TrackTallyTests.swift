import Testing

@testable import FaceKitCLI

@Suite("TrackTally")
struct TrackTallyTests {
    @Test("one video is named; several are counted with their failures")
    func summary() {
        let one = TrackTally(videos: ["clip.mp4"], framesAnalysed: 275, faces: 412, tracks: 6)
        #expect(one.summaryText(seconds: 2.12) == "clip.mp4: 275 frames analysed, 412 faces, 6 tracks, 2.1 s")
        let several = TrackTally(
            videos: ["a.mp4", "b.mp4", "c.mp4"], failures: 1, framesAnalysed: 1, faces: 1, tracks: 1)
        #expect(several.summaryText(seconds: 6.3) == "3 videos, 1 frame analysed, 1 face, 1 track, 1 failed, 6.3 s")
    }
}
