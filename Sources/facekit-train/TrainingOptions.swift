import FaceKit
import Foundation

/// Command-line options of facekit-train.
struct TrainingOptions {
    struct UsageError: Error { var message: String }

    enum Command: String {
        case classifiers
        case landmarkSeed = "landmark-seed"
        case detectionThreshold = "detection-threshold"
        case headPose = "head-pose"
    }

    static let usage = "facekit-train <classifiers|landmark-seed|detection-threshold|head-pose> [--data <dir>] [--dry-run] [--cache <file>]"

    /// The repository root, found from this file so the tool runs from any folder.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    var command: Command
    /// The development data (default: $FACEKIT_TEST_DATA, else ../shared/data beside the repo).
    var data: URL
    /// classifiers: print the evaluation without rewriting the weights file.
    var dryRun = false
    /// classifiers: remember detected landmarks in this file between runs (see ShapeCache).
    var cache: URL?

    init(arguments: [String]) throws(UsageError) {
        if let path = ProcessInfo.processInfo.environment["FACEKIT_TEST_DATA"], !path.isEmpty {
            data = URL(fileURLWithPath: path)
        } else {
            data = Self.repository.deletingLastPathComponent().appendingPathComponent("shared/data")
        }
        var rest = arguments[...]
        guard let first = rest.popFirst(), let command = Command(rawValue: first) else {
            throw UsageError(message: "the first argument must be classifiers, landmark-seed, detection-threshold or head-pose")
        }
        self.command = command
        while let argument = rest.popFirst() {
            switch argument {
            case "--data":
                guard let value = rest.popFirst() else { throw UsageError(message: "missing value for '--data'") }
                data = URL(fileURLWithPath: value)
            case "--dry-run": dryRun = true
            case "--cache":
                guard let value = rest.popFirst() else { throw UsageError(message: "missing value for '--cache'") }
                cache = URL(fileURLWithPath: value)
            default: throw UsageError(message: "unknown argument '\(argument)'")
            }
        }
        guard FileManager.default.fileExists(atPath: data.appendingPathComponent("README.md").path) else {
            throw UsageError(message: "no development data at \(data.path) (use --data or FACEKIT_TEST_DATA)")
        }
    }

    /// The models scripts/setup installs in the repository, so the tool runs from any folder.
    static var models: ModelLocator { ModelLocator(directory: repository.appendingPathComponent(".models").path) }

    var weightsFile: URL {
        Self.repository.appendingPathComponent("Sources/FaceKit/Classification/ClassifierWeights.swift")
    }
}
