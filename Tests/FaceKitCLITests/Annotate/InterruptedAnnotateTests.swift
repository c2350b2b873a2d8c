import FaceKitTestSupport
import Foundation
import Testing

/// The built binary stopped by a signal while it writes an annotated video.
@Suite(
    "annotate stopped by a signal", .needsModels,
    .enabled(if: TestSupport.executable != nil, "the facekit executable was not found next to the test bundle"))
struct InterruptedAnnotateTests {
    @Test("SIGINT or SIGTERM in the middle of a video removes the hidden copy being written", arguments: [SIGINT, SIGTERM])
    func interrupted(signal: Int32) throws {
        try TestSupport.withTemporaryFolder { out in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try #require(TestSupport.executable))
            // The detector on every frame, so that the video takes a few seconds.
            process.arguments = [
                "annotate", "--model-dir", try #require(TestSupport.modelDirectory), "--detection-interval", "1",
                "--output", out, AnnotateCommandTests.crossing,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try TestSupport.runWithSignalsUnblocked(process)
            func temporaryFiles() -> [String] {
                ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter { $0.hasSuffix(".tmp.mp4") }
            }
            let deadline = ContinuousClock.now + .seconds(60)
            while temporaryFiles().isEmpty, process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
            try #require(temporaryFiles().count == 1, "the run writes its copy under a hidden name")
            usleep(300_000)  // some frames into it
            try #require(process.isRunning, "still writing when signalled")
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal)
            let left = try FileManager.default.contentsOfDirectory(atPath: out)
            #expect(left.isEmpty, "nothing is left behind: \(left)")
        }
    }
}
