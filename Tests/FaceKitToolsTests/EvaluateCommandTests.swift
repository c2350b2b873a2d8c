import FaceKitDatasets
import Foundation
import Testing

@testable import FaceKit
@testable import FaceKitArguments
@testable import facekit_evaluate

/// facekit-evaluate's command line, parsed by FaceKitArguments as facekit's is.
@Suite("facekit-evaluate command line")
struct EvaluateCommandTests {
    static let subcommands = ["detection", "landmarks", "tracking", "jitter", "benchmark", "video-benchmark", "clustering"]

    @Test("help lists every measurement as a subcommand, and each has its own help")
    func help() {
        let root = ToolRun(EvaluateCommand.self, ["--help"])
        #expect(root.status == 0 && root.stderr.isEmpty)
        #expect(root.stdout.contains("USAGE: facekit-evaluate <subcommand>"))
        for name in Self.subcommands {
            #expect(root.stdout.contains("\n  \(name) "), "\(name) missing from help")
            let sub = ToolRun(EvaluateCommand.self, [name, "--help"])
            #expect(sub.status == 0 && sub.stdout.contains("USAGE: facekit-evaluate \(name) [<options>]"))
            #expect(sub.stdout.contains("--data <dir>"))
        }
        let benchmark = ToolRun(EvaluateCommand.self, ["help", "video-benchmark"]).stdout
        for option in ["--runs <n>", "--detector <detector>", "--clip <name>"] { #expect(benchmark.contains(option)) }
        #expect(!ToolRun(EvaluateCommand.self, ["help", "tracking"]).stdout.contains("--runs"))
    }

    @Test(
        "a misspelt subcommand or option, or a bad value, is a usage error with exit status 64",
        arguments: [
            (["detectoin"], "Error: Unknown subcommand 'detectoin'. Did you mean 'detection'?"),
            (["benchmark", "--rusn", "3"], "Error: Unknown option '--rusn'. Did you mean '--runs'?"),
            (["tracking", "--runs", "3"], "Error: Unknown option '--runs'"),
            (["benchmark", "--runs", "0"], "Error: The value '0' is invalid for '--runs <n>': it must be at least 1"),
            (["clustering-benchmark", "--faces", "0"], "Error: The value '0' is invalid for '--faces <n>': it must be at least 1"),
            (
                ["clustering-benchmark", "--faces", "10", "--people", "11"],
                "Error: The value '11' is invalid for '--people <n>': it must be between 1 and --faces (10)"
            ),
            (
                ["clustering-benchmark", "--neighbours", "0"],
                "Error: The value '0' is invalid for '--neighbours <k>': it must be at least 1"
            ),
            (
                ["detection", "--detector", "hog"],
                "Error: The value 'hog' is invalid for '--detector <detector>'. Please provide one of 'all', 'yunet' or 'dlib'."
            ),
            (
                ["landmarks", "--data", "/nonexistent/data"],
                "Error: development data not found at /nonexistent/data (no README.md there); pass --data <dir> or set FACEKIT_TEST_DATA"
            ),
        ])
    func usageErrors(arguments: [String], message: String) {
        let run = ToolRun(EvaluateCommand.self, arguments)
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix(message + "\n"), "\(run.stderr)")
        #expect(run.stderr.contains("Usage: facekit-evaluate"))
    }

    @Test("options fill the measurement's fields; --data names a folder holding the data's README")
    func parsesOptions() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facekit-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("# Development data\n".utf8).write(to: folder.appendingPathComponent("README.md"))

        let outcome = try CommandParser(root: EvaluateCommand.self).parse([
            "video-benchmark", "--data", folder.path, "--runs", "2", "--detector", "yunet", "--clip", "crossing",
        ])
        guard case .run(let command, _) = outcome, let benchmark = command as? VideoBenchmark else {
            Issue.record("expected a runnable video-benchmark, got \(outcome)")
            return
        }
        #expect(benchmark.data.folder.path == folder.path)
        #expect(benchmark.runs == 2 && benchmark.clip == "crossing")
        #expect(benchmark.detectors == [.yunet])
        #expect(DetectionEvaluation().detectors == FaceDetector.DetectorKind.allCases, "both detectors by default")
    }
}
