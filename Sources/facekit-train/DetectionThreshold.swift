import FaceKit
import FaceKitDatasets
import Foundation

/// Chooses the performance modes' search plans and the default
/// ``FaceDetectorOptions/minDetectionScore`` from precision/recall curves of YuNet's scores on the
/// fitting photos.
///
/// Truth: the boxes people drew in dlib-faces training.xml (a detection is right when it
/// overlaps one with IoU >= 0.3, one detection per box); and the GENKI-4K files numbered 1 mod 4,
/// each a portrait of one person, where the largest detection is taken as the face and every
/// other one as a false positive (some may be real faces in the background, so precision there
/// is a lower bound). Detection runs at minFaceSize 0.05 with a floor of 0.3 for each candidate
/// plan (model, smallest face in the search, mirrored or not), and the tool prints each plan's
/// best F1 and its threshold, with the time per photo; then the whole curve of the two modes'
/// plans. The default is the threshold with the best F1 in fast mode, the lower one on a tie
/// (recall first). The evaluation sets are not used.
struct DetectionThreshold {
    var options: TrainingOptions

    struct Scored {
        var score: Double
        var isFace: Bool
    }

    /// One candidate way of searching.
    struct Candidate {
        var model: String
        var plan: SearchPlan
        var name: String { "\(model), \(Int(plan.smallestFace)) px\(plan.mirrored ? ", mirrored" : "")" }
    }

    static let candidates: [Candidate] = [
        Candidate(model: "yunet_n_320_320.onnx", plan: SearchPlan(smallestFace: 24, mirrored: false)),
        Candidate(model: "yunet_s_320_320.onnx", plan: SearchPlan(smallestFace: 24, mirrored: false)),
        Candidate(model: "yunet_n_320_320.onnx", plan: SearchPlan(smallestFace: 16, mirrored: false)),
        Candidate(model: "yunet_n_320_320.onnx", plan: SearchPlan(smallestFace: 32, mirrored: false)),
        Candidate(model: "yunet_n_320_320.onnx", plan: SearchPlan(smallestFace: 24, mirrored: true)),
        Candidate(model: "yunet_s_320_320.onnx", plan: SearchPlan(smallestFace: 24, mirrored: true)),
        Candidate(model: "yunet_n_320_320.onnx", plan: SearchPlan(smallestFace: 32, mirrored: true)),
        Candidate(model: "yunet_n_320_320.onnx", plan: SearchPlan(smallestFace: 40, mirrored: true)),
    ]

    func run() throws {
        var summary: [[String]] = []
        var curves: [String: [[String]]] = [:]
        for candidate in Self.candidates {
            var models = TrainingOptions.models
            models.overrides[.faceDetector] = TrainingOptions.repository
                .appendingPathComponent("Sources/FaceKit/BundledModels/\(candidate.model)").path
            var detectorOptions = FaceDetectorOptions()
            detectorOptions.minFaceSize = 0.05
            detectorOptions.minDetectionScore = 0.3
            let detector = try FaceDetector(options: detectorOptions, models: models, plan: candidate.plan)
            let start = Date()
            let (scored, faces, photos) = try collect(with: detector)
            let seconds = Date().timeIntervalSince(start) / Double(photos)
            var best: (threshold: Double, f1: Double, row: [String]) = (0, -1, [])
            var rows: [[String]] = []
            for step in 6...19 {
                let threshold = Double(step) * 0.05
                let kept = scored.filter { $0.score >= threshold }
                let found = kept.filter(\.isFace).count
                let falsePositives = kept.count - found
                let precision = kept.isEmpty ? 1 : Double(found) / Double(kept.count)
                let recall = Double(found) / Double(faces)
                let f1 = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0
                let row = [String(format: "%.2f", threshold), "\(found) / \(faces)", "\(falsePositives)",
                           String(format: "%.4f", recall), String(format: "%.4f", precision), String(format: "%.4f", f1)]
                rows.append(row)
                if f1 > best.f1 + 1e-12 { best = (threshold, f1, row) }
            }
            curves[candidate.name] = rows
            summary.append([candidate.name] + best.row + [String(format: "%.1f", seconds * 1000)])
            FileHandle.standardError.write(Data("detection-threshold: \(candidate.name): \(summary.last!)\n".utf8))
        }
        print("Best F1 of each candidate plan (minFaceSize 0.05; ms per photo includes landmarks and decoding):\n")
        print("| plan | threshold | faces found | false positives | recall | precision | F1 | ms per photo |")
        print("|---|---|---|---|---|---|---|---|")
        for row in summary { print("| " + row.joined(separator: " | ") + " |") }
        for (name, rows) in curves.sorted(by: { $0.key < $1.key }) {
            print("\n\(name):\n")
            print("| threshold | faces found | false positives | recall | precision | F1 |")
            print("|---|---|---|---|---|---|")
            for row in rows { print("| " + row.joined(separator: " | ") + " |") }
        }
    }

    /// Every detection with whether it is a labelled face, and the number of labelled faces.
    func collect(with detector: FaceDetector) throws -> ([Scored], Int, Int) {
        var scored: [Scored] = []
        var faces = 0
        var photos = 0
        let training = try LabelledBoxes(
            contentsOf: options.data.appendingPathComponent("photos/dlib-faces/training.xml").path)
        for image in training.images {
            let detections = try detector.process(FaceImage(contentsOfFile: image.file))
            faces += image.boxes.count
            photos += 1
            var unmatched = image.boxes
            for face in detections.sorted(by: { $0.detectionScore > $1.detectionScore }) {
                let best = unmatched.indices.max { face.frame.intersectionOverUnion(unmatched[$0]) < face.frame.intersectionOverUnion(unmatched[$1]) }
                if let best, face.frame.intersectionOverUnion(unmatched[best]) >= 0.3 {
                    unmatched.remove(at: best)
                    scored.append(Scored(score: face.detectionScore, isFace: true))
                } else {
                    scored.append(Scored(score: face.detectionScore, isFace: false))
                }
            }
        }
        let genki = try SmileLabels.read(options.data.appendingPathComponent("smile/genki4k/labels.csv").path)
            .map(\.file).filter { SmileLabels.number(of: $0).map { $0 % 4 == 1 } ?? false }
        for file in genki {
            let detections = try detector.process(FaceImage(contentsOfFile: file))
            faces += 1
            photos += 1
            let largest = detections.indices.max { detections[$0].frame.width < detections[$1].frame.width }
            for (index, face) in detections.enumerated() {
                scored.append(Scored(score: face.detectionScore, isFace: index == largest))
            }
        }
        return (scored, faces, photos)
    }
}
