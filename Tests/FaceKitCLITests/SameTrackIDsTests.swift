import FaceKit
import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitArguments
@testable import FaceKitCLI

/// One ID per person per video in every command, on the Hamilton clip: Miranda in a wide shot
/// (frames 0-19), Lacamoire's close-up (35-41), Miranda again after a cut (82-210), then four
/// faces of the audience (211-274). `track` joins Miranda's two shots at the end of the video;
/// `annotate`, `group` and `report` must show the IDs `track` writes.
@Suite("the same track IDs in every command", .needsModels, .needsSharedData)
struct SameTrackIDsTests {
    static let clip = TestData.shared("video/short_hamilton_clip.mp4")

    /// `track`'s CSV of the clip as (frame, ID, box's x) per row.
    static func trackRows() throws -> [(frame: Int, id: Int, x: Double)] {
        let run = TrackCommandTests.track(["--quiet", clip])
        try #require(run.status == 0, "\(run.stderr)")
        return TrackCommandTests.rows(run).map { ($0[1].isEmpty ? -1 : Int($0[1])!, Int($0[5])!, Double($0[6])!) }
    }

    @Test("track numbers the clip's people 0 to 5 with no gap, Miranda's two shots one ID")
    func trackIsDense() throws {
        let rows = try Self.trackRows()
        let ids = Set(rows.map(\.id))
        #expect(ids == Set(0..<6), "\(ids.sorted())")
        let miranda = rows.filter { [10, 150].contains($0.frame) }.map(\.id)
        #expect(miranda.count == 2 && miranda[0] == miranda[1], "\(miranda)")
    }

    @Test("annotate draws on every frame the IDs and boxes of track's CSV")
    func annotateDrawsTrackIDs() throws {
        let rows = try Self.trackRows()
        var expected: [Int: [Int: Double]] = [:]  // frame -> ID -> x
        for row in rows { expected[row.frame, default: [:]][row.id] = row.x }
        try TestSupport.withTemporaryFolder { root in
            let command = try #require(
                try AnnotateCommand.parse([
                    "--model-dir", TestSupport.modelDirectory ?? "/nonexistent", "--quiet", "--output", root, Self.clip,
                ]))
            try command.validate()
            var drawn: [Int: [Int: Double]] = [:]
            let status = try command.run(
                CommandContext(stdout: StringOutput(), stderr: StringOutput()),
                hooks: AnnotateHooks(frameDrawn: { frame, faces in
                    for face in faces { drawn[frame, default: [:]][face.trackingID!] = Double(face.frame.minX) }
                }))
            #expect(status == .success)
            #expect(drawn.count == expected.count)
            for (frame, ids) in expected.sorted(by: { $0.key < $1.key }) {
                let drawnIDs = drawn[frame] ?? [:]
                #expect(Set(drawnIDs.keys) == Set(ids.keys), "frame \(frame)")
                for (id, x) in ids { #expect(abs((drawnIDs[id] ?? .infinity) - x) < 0.01, "frame \(frame), ID \(id)") }
            }
        }
    }

    @Test("group's tracks are track's: the same IDs, Miranda's two shots one track from frame 0 to 210")
    func groupUsesTrackIDs() throws {
        let rows = try Self.trackRows()
        try TestSupport.withTemporaryFolder { root in
            let run = GroupCommandTests.group(["--output", root + "/out", Self.clip])
            #expect(run.status == 0, "\(run.stderr)")
            let tracks = try GroupCommandTests.table(root + "/out/faces.csv")
            #expect(Set(tracks.map { Int($0["tracking_id"]!)! }) == Set(rows.map(\.id)))
            for track in tracks {
                let id = Int(track["tracking_id"]!)!
                let frames = rows.filter { $0.id == id }.map(\.frame)
                #expect(Int(track["first_frame"]!) == frames.min() && Int(track["last_frame"]!) == frames.max(), "\(track)")
            }
        }
    }

    @Test("report's tracks of the clip are track's IDs, 0 to 5 with no gap")
    func reportUsesTrackIDs() throws {
        let rows = try Self.trackRows()
        try TestSupport.withTemporaryFolder { root in
            let (run, report) = ReportFixture.report(
                ["--model-dir", TestSupport.modelDirectory ?? "/nonexistent", "--quiet", Self.clip], in: root)
            #expect(run.status == 0, "\(run.stderr)")
            let pages = try FileManager.default.subpathsOfDirectory(atPath: report).filter { $0.hasPrefix("videos/") && $0.hasSuffix(".html") }
            try #require(pages.count == 1, "\(pages)")
            let html = try String(contentsOfFile: report + "/" + pages[0], encoding: .utf8)
            // Each track's section, as its timeline and the tracks table link to it.
            let shown = Set(html.matches(of: /<section class="track" id="track-(\d+)">/).map { Int($0.1)! })
            // Track's IDs, with no gap left for the page to explain (before, 0, 1, 3-6: 2 joined 0).
            #expect(shown == Set(rows.map(\.id)) && shown == Set(0..<6), "\(shown.sorted())")
        }
    }
}
