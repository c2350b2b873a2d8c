@_spi(Evaluation) import FaceKit
import Foundation

/// `facekit-evaluate`: measures FaceKit against the labelled development data and prints the
/// markdown tables that docs/accuracy.md and docs/benchmarks.md quote.
///
/// Argument handling is a small copy of swift-argument-parser's shape (no package dependencies
/// are allowed): usage errors print `Error: ...` plus usage on stderr and exit 64, runtime
/// failures exit 1.
///
/// ```
/// facekit-evaluate benchmark --runs 3   // prints the machine and a timing table
/// ```
struct EvaluateCommand {
    enum Subcommand: String, CaseIterable {
        case detection, landmarks, tracking, jitter, benchmark
        case videoBenchmark = "video-benchmark"

        var abstract: String {
            switch self {
            case .detection: "Detection recall and false positives on dlib-faces boxes and CompreFace noses."
            case .landmarks: "ML Kit landmark error on the Helen photos against 68 points placed by people."
            case .tracking: "Tracking IDs against per-frame ground truth: MOTA, IDF1, identity switches."
            case .jitter: "Frame-to-frame trembling of tracked boxes and angles, with and without smoothing."
            case .videoBenchmark: "Tracking frames per second next to decoding alone (use a release build)."
            case .benchmark: "Model load, decode and per-image analysis time (use a release build)."
            }
        }
    }

    var subcommand: Subcommand
    /// The development data folder (../shared/data beside the repository by default).
    var data: URL
    /// Timed runs per measurement in `benchmark`, after one warm-up run.
    var runs = 5
    /// The detectors compared: YuNet (FaceKit's) and dlib's (what FaceKit used before), by default
    /// both, side by side in one run.
    var detectors = FaceDetector.DetectorKind.allCases
    /// Only the clips whose file name contains this, in `video-benchmark` (all when `nil`).
    var clip: String?

    /// The repository root, found from this source file so the tool works from any folder.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var defaultData: URL {
        if let path = ProcessInfo.processInfo.environment["FACEKIT_TEST_DATA"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return repository.deletingLastPathComponent().appendingPathComponent("shared/data")
    }

    /// Models from the repository's `.models` first, so the binary can live in any scratch folder.
    static var models: ModelLocator { ModelLocator(directory: repository.appendingPathComponent(".models").path) }

    static let usage = "facekit-evaluate <detection|landmarks|tracking|jitter|benchmark|video-benchmark> [--data <dir>] [--runs <n>] [--detector <yunet|dlib|all>] [--clip <name>]"

    static var help: String {
        """
        OVERVIEW: Measures FaceKit's accuracy and speed on the development data.

        USAGE: \(usage)

        ARGUMENTS:
        \(Subcommand.allCases.map { "  " + $0.rawValue.padding(toLength: 17, withPad: " ", startingAt: 0) + $0.abstract }.joined(separator: "\n"))

        OPTIONS:
          --data <dir>  The development data folder (default: $FACEKIT_TEST_DATA, else ../shared/data beside the repository).
          --runs <n>    Timed runs per measurement in benchmark, after one warm-up (default: 5).
          --detector <yunet|dlib|all>
                        Which detectors detection, landmarks, benchmark and video-benchmark measure
                        (default: all; dlib's HOG and MMOD are the "before" rows).
          --clip <name> In video-benchmark, only the clips whose file name contains <name>.
          -h, --help    Show help information.

        """
    }

    struct UsageError: Error { var message: String }

    /// Parses `arguments`, then checks that the data folder exists before any work starts.
    init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        guard let first = rest.popFirst() else { throw UsageError(message: "missing subcommand") }
        guard let subcommand = Subcommand(rawValue: first) else {
            throw UsageError(message: "unknown subcommand '\(first)'")
        }
        self.subcommand = subcommand
        self.data = Self.defaultData
        while let argument = rest.popFirst() {
            guard let value = rest.popFirst() else { throw UsageError(message: "missing value for '\(argument)'") }
            switch argument {
            case "--data": data = URL(fileURLWithPath: value)
            case "--clip": clip = value
            case "--detector":
                if value == "all" {
                    detectors = FaceDetector.DetectorKind.allCases
                } else if let kind = FaceDetector.DetectorKind(rawValue: value) {
                    detectors = [kind]
                } else {
                    throw UsageError(message: "--detector must be yunet, dlib or all, got '\(value)'")
                }
            case "--runs":
                guard let n = Int(value), n >= 1 else { throw UsageError(message: "--runs must be a positive integer, got '\(value)'") }
                runs = n
            default: throw UsageError(message: "unknown option '\(argument)'")
            }
        }
        guard FileManager.default.fileExists(atPath: data.appendingPathComponent("README.md").path) else {
            throw UsageError(message: "no development data at \(data.path) (pass --data or set FACEKIT_TEST_DATA)")
        }
    }

    func run() throws {
        switch subcommand {
        case .detection: try DetectionEvaluation(data: data, detectors: detectors).run()
        case .landmarks: try LandmarkEvaluation(data: data, detectors: detectors).run()
        case .tracking: try TrackingEvaluation(data: data).run()
        case .jitter: try JitterEvaluation(data: data).run()
        case .videoBenchmark: try VideoBenchmark(data: data, runs: runs, detectors: detectors, clip: clip).run()
        case .benchmark: try Benchmark(data: data, runs: runs, detectors: detectors).run()
        }
    }

    static func main(arguments: [String]) -> Int32 {
        if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") {
            print(help, terminator: "")
            return arguments.isEmpty ? 64 : 0
        }
        do {
            try EvaluateCommand(arguments: arguments).run()
            return 0
        } catch let error as UsageError {
            FileHandle.standardError.write(Data("Error: \(error.message)\nUsage: \(usage)\n".utf8))
            return 64
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            return 1
        }
    }
}

/// Seconds spent in `body`, with its result.
func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = try body()
    return (result, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func mean(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count) }

/// A number with a fixed number of decimals, for table cells.
func fixed(_ value: Double, _ decimals: Int) -> String { value.isNaN ? "–" : String(format: "%.\(decimals)f", value) }

/// Prints a markdown table.
func printTable(_ header: [String], _ rows: [[String]]) {
    print("| " + header.joined(separator: " | ") + " |")
    print("|" + header.map { _ in "---" }.joined(separator: "|") + "|")
    for row in rows { print("| " + row.joined(separator: " | ") + " |") }
}

/// Writes progress to stderr so stdout stays a clean markdown table.
func progress(_ message: String) { FileHandle.standardError.write(Data((message + "\n").utf8)) }

/// How a detector and mode are named in the tables.
func label(_ kind: FaceDetector.DetectorKind, _ mode: FaceDetectorOptions.PerformanceMode) -> String {
    switch (kind, mode) {
    case (.yunet, _): "YuNet \(mode.rawValue)"
    case (.dlib, .fast): "dlib HOG (before, fast)"
    case (.dlib, .accurate): "dlib HOG + MMOD (before, accurate)"
    }
}
