import Foundation
import Testing
import FaceKitDatasets
import FaceKitTestSupport
@testable import FaceKit

/// Eye-open probabilities of a tracked face, judged against its own open level, on the FOCUS
/// clip the eye models were not trained on.
@Suite("Blinks in video", .needsModels, .needsSharedData)
struct BlinksInVideoTests {
    @Test("a tracked face's blinks read as closed at the labelled frames, and are counted")
    func heldOutClip() throws {
        var options = TrackedVideo.trackingOptions
        options.classificationMode = .all
        options.minFaceSize = 0.2
        let tracker = try FaceTracker(
            options: options, models: ModelLocator(directory: TestData.models), reidentification: .off)
        let folder = "eyes/focus-blink/mahie_test_3"
        let closed = try BlinkLabels.closedByFrame(TestData.shared(folder + "_ideal.csv"))
        let video = try VideoReader(contentsOfFile: TestData.shared(folder + ".avi"))
        let lastFrame = 700
        var openness: [Int: Double] = [:]  // the more open eye, as BlinkCounter judges
        var blinks = BlinkCounter()
        while let frame = try video.next(), frame.index <= lastFrame {
            guard let image = frame.image,
                let face = try tracker.process(image, timestampMs: frame.timestampMs).max(by: { $0.frame.width < $1.frame.width })
            else { continue }
            blinks.record(face, timestampMs: frame.timestampMs)
            if let left = face.leftEyeOpenProbability, let right = face.rightEyeOpenProbability {
                openness[frame.index] = max(left, right)
            }
        }
        var runs: [[Int]] = []
        for frame in (1...lastFrame) where closed[frame] == true {
            if let last = runs.last?.last, last == frame - 1 { runs[runs.count - 1].append(frame) } else { runs.append([frame]) }
        }
        try #require(runs.count == 2, "the clip's first \(lastFrame) frames hold two blinks")
        for run in runs {
            let lowest = run.compactMap { openness[$0] }.min() ?? 1
            #expect(lowest < 0.5, "blink at frames \(run) not read as closed (lowest open probability \(lowest))")
        }
        let closedFrames = runs.flatMap { $0 }
        let farFromBlinks = openness.keys.filter { frame in closedFrames.allSatisfy { abs($0 - frame) > 2 } }
        let readOpen = farFromBlinks.filter { openness[$0]! >= 0.5 }.count
        #expect(Double(readOpen) >= 0.99 * Double(farFromBlinks.count), "\(readOpen) of \(farFromBlinks.count) open frames read as open")
        #expect(blinks.count == runs.count)
    }
}
