import Testing

@testable import FaceKitCLI

@Suite("TrackTally")
struct TrackTallyTests {
    @Test("one video is named; several are counted with their failures")
    func summary() {
        let one = TrackTally(videos: 1, onlyVideo: "clip.mp4", framesAnalysed: 275, faces: 412, tracks: 6)
        #expect(one.summaryText(seconds: 2.12) == "clip.mp4: 275 frames analysed, 412 faces, 6 tracks, 2.1 s")
        let several = TrackTally(videos: 3, failures: 1, framesAnalysed: 1, faces: 1, tracks: 1)
        #expect(several.summaryText(seconds: 6.3) == "3 videos, 1 frame analysed, 1 face, 1 track, 1 failed, 6.3 s")
    }

    @Test("videos are counted as they are done; one resumed after others is not named alone")
    func counting() {
        var tally = TrackTally()
        tally.countVideo("a.mp4")
        #expect(tally.summaryText(seconds: 1).hasPrefix("a.mp4: "))
        tally.countVideo("b.mp4")
        #expect(tally.summaryText(seconds: 1).hasPrefix("2 videos, "))
        var resumed = TrackTally(resumedFrom: tally.collectionTally)
        #expect(resumed.videos == 2 && resumed.onlyVideo == nil)
        resumed.countVideo("c.mp4")
        #expect(resumed.summaryText(seconds: 1).hasPrefix("3 videos, "))
    }
}
