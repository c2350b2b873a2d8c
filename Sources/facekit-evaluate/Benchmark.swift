import FaceKit
import FaceKitArguments
import FaceKitDatasets
import Foundation

/// Release-build timing: model loading apart from per-image work, decoding apart from analysis.
///
/// Loading happens once per detector (the 68-point model is ~100 MB), so it is reported on its
/// own rather than spread over images. Per-image figures are the median of `runs` runs after one
/// warm-up run, at default options (minFaceSize 0.1), then with landmarks, then with landmarks
/// and classification (what classification adds).
struct Benchmark: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "benchmark",
            abstract: "Model load, decode and per-image analysis time (use a release build).")
    }

    static var arguments: [ArgumentDefinition<Self>] {
        [
            DevelopmentData.argument(\.data),
            .option("runs", \.runs, valueName: "n", help: "Timed runs per measurement, after one warm-up run."),
            DetectorChoice.argument(\.detector),
        ]
    }

    var data = DevelopmentData()
    var runs = 5
    var detector = DetectorChoice.all
    var detectors: [FaceDetector.DetectorKind] { detector.kinds }

    static let photos = [
        "photos/face_recognition/obama-240p.jpg", "photos/face_recognition/obama-480p.jpg",
        "photos/face_recognition/obama-720p.jpg", "photos/face_recognition/obama-1080p.jpg",
        "photos/dlib-faces/bald_guys.jpg", "photos/pyfeat/multi_face.jpg", "photos/compreface/001_A.jpg",
    ]

    func validate() throws(CommandError) {
        try validateRuns(runs)
        try data.validateArgument()
    }

    func run(_ context: CommandContext) throws -> ExitStatus {
        try run()
        return .success
    }

    func run() throws {
        printMachine()
        let configurations = detectors.flatMap { kind in FaceDetectorOptions.PerformanceMode.allCases.map { (kind, $0) } }
        var detectors: [[FaceDetector]] = []
        var loadRows: [[String]] = []
        for (kind, mode) in configurations {
            var options = FaceDetectorOptions()
            options.performanceMode = mode
            func load(_ options: FaceDetectorOptions) throws -> FaceDetector {
                try FaceDetector(options: options, models: DevelopmentData.models, detector: kind)
            }
            // Three loads: the first may read the files from disk, later ones from the page cache.
            let loads = try (0..<3).map { _ in try timed { try load(options) }.1 }
            loadRows.append([label(kind, mode), fixed(loads[0] * 1000, 0), fixed(median(loads) * 1000, 0)])
            var withLandmarks = options
            withLandmarks.landmarkMode = .all
            var withClassification = withLandmarks
            withClassification.classificationMode = .all
            detectors.append([try load(options), try load(withLandmarks), try load(withClassification)])
        }
        printTable(["detector", "first load ms", "median of 3 loads ms"], loadRows)
        print()

        var rows: [[String]] = []
        for ((kind, mode), trio) in zip(configurations, detectors) {
            for path in Self.photos {
                let file = data.url(path).path
                let decodes = try (0...runs).map { _ in try timed { try FaceImage(contentsOfFile: file) }.1 }.dropFirst()
                let image = try FaceImage(contentsOfFile: file)
                var row = [
                    label(kind, mode), URL(fileURLWithPath: path).lastPathComponent, "\(image.width)x\(image.height)",
                    fixed(median(Array(decodes)) * 1000, 0),
                ]
                var faceCount = 0
                for detector in trio {
                    var times: [Double] = []
                    for _ in 0...runs {
                        let (faces, seconds) = try timed { try detector.process(image) }
                        faceCount = faces.count
                        times.append(seconds)
                    }
                    row.append(fixed(median(Array(times.dropFirst())) * 1000, 1))
                }
                row.append("\(faceCount)")
                progress(row.joined(separator: " / "))
                rows.append(row)
            }
        }
        printTable(
            ["detector", "image", "size", "decode ms", "detect + pose ms", "+ landmarks", "+ classify", "faces"], rows)
        print()
        try printEyeStateCost()
        try printSmileCost()
        print()
        print("Load average after the run: \(loadAverage()); other swift builds running: \(otherBuilds())")
    }

    /// The eye-state network alone, as `FaceClassifier` runs it: one face's two eyes in one pass.
    /// Its cost does not depend on what the patches show, so they are fixed noise.
    func printEyeStateCost() throws {
        let model = try EyeStateModel(modelPath: DevelopmentData.models.path(for: .eyeState))
        var generator = SystemRandomNumberGenerator()
        let side = EyeStateModel.side
        let patches = (0..<2).map { _ in (0..<(side * side)).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        let passes = 500
        var times: [Double] = []
        for _ in 0...runs {
            times.append(try timed { for _ in 0..<passes { _ = try model.openProbabilities(patches) } }.1)
        }
        let perEye = median(Array(times.dropFirst())) / Double(passes * 2)
        print("Eye-state network: \(fixed(perEye * 1e6, 0)) us per eye (two eyes a pass, median of \(runs) runs of \(passes) passes)")
    }

    /// The smile network alone, as `FaceClassifier` runs it: one face's mouth a pass. Its cost
    /// does not depend on what the patch shows, so it is fixed noise.
    func printSmileCost() throws {
        let model = try SmileModel(modelPath: DevelopmentData.models.path(for: .smile))
        var generator = SystemRandomNumberGenerator()
        let side = SmileModel.side
        let patch = (0..<(side * side)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let features = [Double](repeating: 0.3, count: SmileFeatures.names.count)
        let passes = 1000
        var times: [Double] = []
        for _ in 0...runs {
            times.append(try timed { for _ in 0..<passes { _ = try model.smilingProbabilities(patches: [patch], features: [features]) } }.1)
        }
        let perFace = median(Array(times.dropFirst())) / Double(passes)
        print("Smile network: \(fixed(perFace * 1e6, 0)) us per face (one mouth a pass, median of \(runs) runs of \(passes) passes)")
    }

    func printMachine() {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown"
        #if DEBUG
            let build = "debug"
        #else
            let build = "release"
        #endif
        print("Machine: \(ProcessInfo.processInfo.activeProcessorCount) cores (nproc), \(cpu); "
            + "\(build) build; \(runs) timed runs after 1 warm-up; load average before: \(loadAverage()); "
            + "other swift builds running: \(otherBuilds())")
        print()
    }

    func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
            .joined(separator: " ") ?? "unknown"
    }

    /// Other compilers running now would disturb the timings, so the output says so.
    func otherBuilds() -> Int {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return pids.filter { Int($0) != nil }.filter { pid in
            let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            return name.hasPrefix("swift-build") || name.hasPrefix("swift-frontend") || name.hasPrefix("clang")
        }.count
    }
}
