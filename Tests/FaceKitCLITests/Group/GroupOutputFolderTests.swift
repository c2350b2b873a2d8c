import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// `facekit group`'s output folder reused, inside its inputs, interrupted, and JSON Lines that
/// mix a photo's lines with and without a frame (issues 54 and 55).
@Suite("group: its output folder, reruns and interruptions")
struct GroupOutputFolderTests {
    /// A line of `analyze --descriptors --format jsonl` for the astronaut's face in `source`,
    /// with a descriptor of its own for each `person` (0.71 apart, beyond --threshold).
    static func line(source: String, frame: Int? = nil, person: Int = 0) -> String {
        var descriptor = [Double](repeating: 0, count: 128)
        descriptor[person % 128] = 0.5
        let frameKey = frame.map { "\"frame\":\($0)," } ?? ""
        return "{\"source\":\"\(source)\",\(frameKey)\"face\":0,"
            + "\"box\":{\"x\":181.08,\"y\":65.27,\"width\":89.39,\"height\":110.72},\"quality\":0.8,"
            + "\"descriptor\":[\(descriptor.map { String($0) }.joined(separator: ","))]}\n"
    }

    /// The names in `folder`, sorted; empty when it is not there.
    static func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    static func rows(_ table: String) throws -> Int {
        try CSVTable(text: String(contentsOfFile: table, encoding: .utf8)).rows.count
    }

    @Test(
        "JSON Lines giving one photo a frame on one line and none on another: crops without a trap",
        .enabled(if: TestSupport.executable != nil, "the facekit executable was not found next to the test bundle"))
    func photoLinesWithAndWithoutFrame() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photo = try TestSupport.makeFile(folder, "a.png", contents: TestSupport.astronautData())
            let lines = folder + "/faces.jsonl"
            // The line with a frame first: its source was then cropped as a video, frame by frame.
            try (Self.line(source: photo, frame: 0, person: 1) + Self.line(source: photo))
                .write(toFile: lines, atomically: true, encoding: .utf8)
            let run = try TestSupport.runExecutable(["group", "--all-crops", "--output", folder + "/out", lines], killedAfter: 300)
            #expect(run.status == 0 || run.status == 1, "ended by a signal? exit \(run.status): \(run.stderr)")
            #expect(try Self.rows(folder + "/out/faces.csv") == 2)
            #expect(Self.names(folder + "/out/crops").contains("face-1.jpg"), "the photo's line has its crop")
        }
    }
}
