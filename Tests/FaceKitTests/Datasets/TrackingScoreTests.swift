import Foundation
import Testing

@testable import FaceKitDatasets

@Suite("TrackingScore")
struct TrackingScoreTests {
    @Test("IDF1 pairs identities with IDs optimally: one ID split across two people counts for both")
    func idf1IsOptimal() throws {
        let a = CGRect(x: 0, y: 0, width: 100, height: 100)
        let b = CGRect(x: 300, y: 0, width: 100, height: 100)
        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("truth-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: csv) }
        let rows = (0..<5).map { "\($0),alice,0,0,100,100" } + (5..<7).map { "\($0),bob,300,0,100,100" }
        try (["frame,identity,x,y,width,height"] + rows).joined(separator: "\n").write(to: csv, atomically: true, encoding: .utf8)
        let truth = try GroundTruth(csvFile: csv.path)
        // Alice is ID 1 for three frames, then ID 2 for two; then Bob takes ID 1 for two frames.
        var tracked: [Int: [TrackingScore.Tracked]] = [:]
        for frame in 0..<3 { tracked[frame] = [.init(box: a, id: 1)] }
        for frame in 3..<5 { tracked[frame] = [.init(box: a, id: 2)] }
        for frame in 5..<7 { tracked[frame] = [.init(box: b, id: 1)] }
        let score = TrackingScore(truth: truth, tracked: tracked)
        #expect(score.matchedCount == 7)
        // Alice-2 and Bob-1 agree on 4 boxes; greedy took Alice-1 (3 boxes) and left Bob unpaired.
        #expect(abs(score.idf1 - 2.0 * 4 / 14) < 1e-12, "IDF1 \(score.idf1)")
    }
}
