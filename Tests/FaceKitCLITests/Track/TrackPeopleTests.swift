import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// `track --known`, `--summary`'s best shot and person, and IDs joined across cuts, on the
/// Hamilton clip (Miranda, then Lacamoire in close-up, Miranda again, then the audience) with
/// the cast's reference photos (video/hamilton-cast: DIR/<name>.png).
@Suite("track: people", .needsModels, .needsSharedData)
struct TrackPeopleTests {
    static let clip = TestData.shared("video/short_hamilton_clip.mp4")
    static let cast = TestData.shared("video/hamilton-cast")

    static func table(_ text: String) -> [[String: String]] {
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(lines[0], $0)) }
    }

    @Test("Miranda's two shots are one track, named after his reference photo in rows and summary; strangers stay unnamed")
    func namedTracks() throws {
        let summary = NSTemporaryDirectory() + "facekit-track-people-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: summary) }
        let run = TrackCommandTests.track(["--known", Self.cast, "--summary", summary, Self.clip])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = Self.table(run.stdout)
        let tracks = Self.table(try String(contentsOfFile: summary, encoding: .utf8))
        let named = tracks.filter { $0["person"] == "lin-manuel-miranda" }
        try #require(named.count == 1)
        let miranda = named[0]
        // The wide shot (frames 0-19) and the medium shot after the cuts (82-210).
        #expect(miranda["first_frame"] == "0")
        #expect(miranda["last_frame"] == "210")
        // The four faces of the audience (from frame 211) are no one the folder knows.
        let audience = tracks.filter { $0["first_frame"] == "211" }
        #expect(audience.count == 4)
        #expect(audience.allSatisfy { $0["person"] == "" })
        // Rows carry their track's name; the best shot is the track's highest quality row.
        let mirandaRows = rows.filter { $0["tracking_id"] == miranda["tracking_id"] }
        #expect(mirandaRows.allSatisfy { $0["person"] == "lin-manuel-miranda" })
        let qualities = mirandaRows.compactMap { $0["quality"].flatMap(Double.init) }
        #expect(miranda["best_quality"].flatMap(Double.init) == qualities.max())
        let bestRow = mirandaRows.first { $0["frame"] == miranda["best_frame"] }
        #expect(bestRow?["quality"].flatMap(Double.init) == qualities.max())
    }

    @Test("--known rows stream: what is written before the video's end is rows whose person is named, in order")
    func namedRowsStream() throws {
        // With a half-second --reid-window, Miranda's wide shot (frames 0-19) has ended for good
        // by frame 60, while Lacamoire's close-up (from 20) is still on screen. Stopped there as a
        // kill would stop it, the table may hold the first shot's rows (once the background
        // descriptors that name Miranda are in: how soon depends on the machine, and
        // TracksAcrossCutsTests checks when they settle), named, and never a row after them.
        // Before names were settled as the video went on, no row was written until its end.
        try TestSupport.withTemporaryFolder { folder in
            let output = folder + "/faces.csv"
            let run = try TrackCollectionTests.track(
                ["--known", Self.cast, "--reid-window", "0.5", "--output", output, Self.clip], stopAfterFrames: 60 / 5)
            #expect(run.status == 1)
            let rows = Self.table(try String(contentsOfFile: output + ".partial", encoding: .utf8))
                .filter { $0["status"] == "detected" || $0["status"] == "followed" }
            #expect(rows.allSatisfy { Int($0["frame"]!)! < 20 })
            #expect(rows.allSatisfy { $0["person"] == "lin-manuel-miranda" })
            let frames = rows.map { Int($0["frame"]!)! }
            #expect(frames == Array([0, 5, 10, 15].prefix(frames.count)), "the rows go out in order, from the first")
        }
    }

    @Test("--known with --no-reid, and --descriptors in CSV, are usage errors")
    func usageErrors() {
        #expect(TrackCommandTests.track(["--known", Self.cast, "--no-reid", Self.clip]).status == 64)
        #expect(TrackCommandTests.track(["--descriptors", Self.clip]).status == 64)
    }
}
