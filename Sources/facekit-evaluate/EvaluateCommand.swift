import FaceKit
import FaceKitArguments
import Foundation

/// `facekit-evaluate`: measures FaceKit against the labelled development data and prints the
/// markdown tables that docs/accuracy.md and docs/benchmarks.md quote; progress goes to
/// standard error. One subcommand per measurement, parsed like `facekit`'s (FaceKitArguments):
/// help, "Did you mean", usage errors with exit status 64, runtime failures 1.
///
/// ```
/// facekit-evaluate benchmark --runs 3   // prints the machine and a timing table
/// ```
struct EvaluateCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "facekit-evaluate",
            abstract: "Measure FaceKit's accuracy and speed on the development data.",
            discussion: """
                Prints the markdown tables that docs/accuracy.md and docs/benchmarks.md quote; \
                progress goes to standard error.
                """,
            subcommands: [
                DetectionEvaluation.self, LandmarkEvaluation.self, TrackingEvaluation.self, JitterEvaluation.self,
                Benchmark.self, VideoBenchmark.self, ClusteringBenchmark.self, NamingEvaluation.self, CutEvaluation.self, ClusteringEvaluation.self,
                CoverageEvaluation.self,
            ])
    }

    /// Not reached: a command with subcommands prints its help when none is given.
    func run(_ context: CommandContext) throws -> ExitStatus { .success }
}

/// `--detector`: the detectors a measurement compares, YuNet (FaceKit's) and dlib's (what
/// FaceKit used before), by default both, side by side in one run.
enum DetectorChoice: String, CaseIterable, ExpressibleByArgument {
    case all, yunet, dlib

    var kinds: [FaceDetector.DetectorKind] {
        switch self {
        case .all: FaceDetector.DetectorKind.allCases
        case .yunet: [.yunet]
        case .dlib: [.dlib]
        }
    }

    /// The `--detector <detector>` option, bound to the choice stored at `keyPath`.
    static func argument<Command>(_ keyPath: WritableKeyPath<Command, DetectorChoice>) -> ArgumentDefinition<Command> {
        .option(
            "detector", keyPath, valueName: "detector",
            help: "Which detectors to measure; dlib's HOG and MMOD are the \"before\" rows.")
    }
}

/// Refuses a `--runs` below 1, as a usage error.
func validateRuns(_ runs: Int) throws(CommandError) {
    guard runs >= 1 else {
        throw CommandError("The value '\(runs)' is invalid for '--runs <n>': it must be at least 1")
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
