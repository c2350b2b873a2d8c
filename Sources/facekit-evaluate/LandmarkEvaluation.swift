import FaceKit
import FaceKitArguments
import FaceKitDatasets
import Foundation

/// Error of the ML Kit landmarks users get, against the same points built from Helen's
/// human-placed 68-point annotations.
///
/// The public API gives no raw dlib points, so the six landmarks that are plain dlib points or
/// averages (eye centres, nose base, mouth corners, mouth bottom) are compared with the same
/// construction from the annotation. Error is distance over the annotation's outer-eye-corner
/// distance (points 36 and 45); a face fails when its mean error exceeds 0.1. Each annotated face
/// is matched to the detection whose box contains the centre of its annotated points (nearest box
/// centre if several), otherwise it counts as a detector miss.
struct LandmarkEvaluation: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "landmarks",
            abstract: "ML Kit landmark error on the Helen photos against 68 points placed by people.")
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

    /// One detector and mode: what a row is about.
    struct Configuration: Hashable {
        var kind: FaceDetector.DetectorKind
        var mode: FaceDetectorOptions.PerformanceMode
        var name: String { label(kind, mode) }
    }

    var configurations: [Configuration] {
        detectors.flatMap { kind in FaceDetectorOptions.PerformanceMode.allCases.map { Configuration(kind: kind, mode: $0) } }
    }

    /// The compared landmarks and how each is built from 68 iBUG points (0-based).
    static let compared: [(type: FaceLandmark.LandmarkType, indices: [Int])] = [
        (.leftEye, Array(42...47)), (.rightEye, Array(36...41)), (.noseBase, [33]),
        (.mouthLeft, [54]), (.mouthRight, [48]), (.mouthBottom, [57]),
    ]

    static let failureThreshold = 0.1

    struct Score {
        var annotated = 0
        var faceErrors: [Double] = []
        /// Per landmark type, the normalised errors of the detected faces.
        var pointErrors: [FaceLandmark.LandmarkType: [Double]] = [:]
        var seconds = 0.0
    }

    func validate() throws(CommandError) {
        try data.validateArgument()
    }

    func run(_ context: CommandContext) throws -> ExitStatus {
        try run()
        return .success
    }

    func run() throws {
        let folder = data.url("landmarks/helen")
        let photos = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".jpg") }.sorted()
        var scores: [Configuration: [Score]] = [:]
        for configuration in configurations {
            let mode = configuration.name
            var options = FaceDetectorOptions()
            options.performanceMode = configuration.mode
            options.landmarkMode = .all
            let detector = try FaceDetector(options: options, models: DevelopmentData.models, detector: configuration.kind)
            // Index 0 holds the odd-numbered files (1st, 3rd, ...), index 1 the even-numbered ones.
            var split = [Score(), Score()]
            for (index, name) in photos.enumerated() {
                let truth = try LandmarkAnnotation.read(
                    folder.appendingPathComponent(name.replacingOccurrences(of: ".jpg", with: ".pts")).path)
                precondition(truth.count == 68, "\(name): expected 68 annotated points, got \(truth.count)")
                let image = try FaceImage(contentsOfFile: folder.appendingPathComponent(name).path)
                let (faces, seconds) = try timed { try detector.process(image) }
                split[index % 2].seconds += seconds
                split[index % 2].annotated += 1
                guard let face = Self.match(faces, to: truth) else {
                    progress("\(mode) \(name): detector miss (\(faces.count) faces found)")
                    continue
                }
                let scale = distance(truth[36], truth[45])
                var errors: [Double] = []
                for (type, indices) in Self.compared {
                    let expected = centre(of: indices.map { truth[$0] })
                    let error = face.landmark(ofType: type).map { distance($0.position, expected) / scale } ?? .infinity
                    split[index % 2].pointErrors[type, default: []].append(error)
                    errors.append(error)
                }
                split[index % 2].faceErrors.append(mean(errors))
                if mean(errors) > Self.failureThreshold {
                    progress("\(mode) \(name): failure, mean error \(fixed(mean(errors), 3)), yaw \(fixed(face.headEulerAngleY, 0))")
                }
            }
            scores[configuration] = split
        }
        printSummary(scores)
        print()
        printPerLandmark(scores)
    }

    /// The detection whose box contains the annotation's centre; the nearest box centre wins ties.
    static func match(_ faces: [Face], to truth: [CGPoint]) -> Face? {
        let target = centre(of: truth)
        return faces.filter { $0.frame.contains(target) }
            .min { distance(centre(of: [$0.frame.origin, CGPoint(x: $0.frame.maxX, y: $0.frame.maxY)]), target)
                < distance(centre(of: [$1.frame.origin, CGPoint(x: $1.frame.maxX, y: $1.frame.maxY)]), target) }
    }

    func printSummary(_ scores: [Configuration: [Score]]) {
        var rows: [[String]] = []
        for configuration in configurations {
            for (half, score) in zip(["odd-numbered", "even-numbered"], scores[configuration] ?? []) {
                let failures = score.faceErrors.filter { $0 > Self.failureThreshold }.count
                rows.append([
                    half, configuration.name, "\(score.annotated)", "\(score.faceErrors.count)",
                    fixed(mean(score.faceErrors), 4), fixed(median(score.faceErrors), 4),
                    "\(failures) (\(fixed(100 * Double(failures) / Double(max(1, score.faceErrors.count)), 1)) %)",
                    fixed(score.seconds, 1),
                ])
            }
        }
        printTable(
            ["Helen files", "detector", "faces annotated", "detected", "mean error", "median error",
             "failures (> 0.1)", "seconds"], rows)
    }

    /// Mean error per landmark over both halves, to show which points are systematically off.
    func printPerLandmark(_ scores: [Configuration: [Score]]) {
        let rows = Self.compared.map { type, _ in
            [type.rawValue] + configurations.flatMap { configuration -> [String] in
                let errors = (scores[configuration] ?? []).flatMap { $0.pointErrors[type] ?? [] }
                return [fixed(mean(errors), 4), fixed(median(errors), 4)]
            }
        }
        printTable(["landmark"] + configurations.flatMap { ["\($0.name) mean", "\($0.name) median"] }, rows)
    }
}

func centre(of points: [CGPoint]) -> CGPoint {
    CGPoint(x: points.map(\.x).reduce(0, +) / Double(points.count), y: points.map(\.y).reduce(0, +) / Double(points.count))
}

func distance(_ a: CGPoint, _ b: CGPoint) -> Double { Double(hypot(a.x - b.x, a.y - b.y)) }
