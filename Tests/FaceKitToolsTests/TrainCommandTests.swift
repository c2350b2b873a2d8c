import FaceKitDatasets
import Foundation
import Testing

@testable import FaceKitArguments
@testable import facekit_train

/// facekit-train's command line, parsed by FaceKitArguments as facekit's is.
@Suite("facekit-train command line")
struct TrainCommandTests {
    @Test("help lists the fits and the eye and mouth patches; only classifiers offers --dry-run and --cache")
    func help() {
        let root = ToolRun(TrainCommand.self, [])
        #expect(root.status == 0 && root.stderr.isEmpty)
        for name in ["classifiers", "eye-patches", "mouth-patches", "landmark-seed", "detection-threshold"] {
            #expect(root.stdout.contains("\n  \(name) "), "\(name) missing from help")
        }
        let classifiers = ToolRun(TrainCommand.self, ["classifiers", "-h"]).stdout
        #expect(classifiers.contains("--dry-run") && classifiers.contains("--cache <file>"))
        let seed = ToolRun(TrainCommand.self, ["landmark-seed", "--help"]).stdout
        #expect(seed.contains("--data <dir>") && !seed.contains("--dry-run"))
    }

    @Test(
        "a misspelt subcommand or option is a usage error with exit status 64",
        arguments: [
            (["classifier"], "Error: Unknown subcommand 'classifier'. Did you mean 'classifiers'?"),
            (["classifiers", "--dry-rn"], "Error: Unknown option '--dry-rn'. Did you mean '--dry-run'?"),
            (["landmark-seed", "--dry-run"], "Error: Unknown option '--dry-run'"),
            (["classifiers", "--cache"], "Error: Missing value for '--cache <file>'"),
            (["eye-patches"], "Error: eye-patches needs --output <folder>"),
            (["mouth-patches"], "Error: mouth-patches needs --output <folder>"),
            (
                ["detection-threshold", "--data", "/nonexistent/data"],
                "Error: development data not found at /nonexistent/data (no README.md there); pass --data <dir> or set FACEKIT_TEST_DATA"
            ),
        ])
    func usageErrors(arguments: [String], message: String) {
        let run = ToolRun(TrainCommand.self, arguments)
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix(message + "\n"), "\(run.stderr)")
        #expect(run.stderr.contains("Usage: facekit-train"))
    }

    @Test("classifiers' options reach the training run")
    func parsesOptions() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facekit-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("# Development data\n".utf8).write(to: folder.appendingPathComponent("README.md"))

        let outcome = try CommandParser(root: TrainCommand.self).parse([
            "classifiers", "--dry-run", "--cache", "/tmp/shapes.json", "--data=\(folder.path)",
        ])
        guard case .run(let command, _) = outcome, let training = command as? Training else {
            Issue.record("expected a runnable classifiers command, got \(outcome)")
            return
        }
        #expect(training.options.dryRun)
        #expect(training.options.cache?.path == "/tmp/shapes.json")
        #expect(training.options.data.path == folder.path)
        #expect(!Training().options.dryRun && Training().options.cache == nil)
    }
}
