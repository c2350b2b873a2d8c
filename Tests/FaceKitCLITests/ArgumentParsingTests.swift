import FaceKit
import Foundation
import Testing

@testable import FaceKitArguments
@testable import FaceKitCLI

@Suite("Argument parsing")
struct ArgumentParsingTests {
    func parse(_ arguments: [String]) throws -> AnalyzeCommand {
        let outcome = try CommandParser(root: FaceKitCommand.self).parse(["analyze"] + arguments)
        guard case .run(let command, _) = outcome, let analyze = command as? AnalyzeCommand else {
            Issue.record("expected a runnable analyze command")
            return AnalyzeCommand()
        }
        return analyze
    }

    @Test("defaults match ML Kit's and the documented CLI defaults")
    func defaults() throws {
        let command = try parse(["a.jpg"])
        #expect(command.detection.mode == .fast)
        #expect(!command.detection.landmarks && !command.detection.contours && !command.detection.classify)
        #expect(command.detection.minFaceSize == 0.1)
        #expect(command.format == .csv)
        #expect(command.output == nil && command.detection.modelDirectory == nil)
        #expect(command.maxPixels == FaceImage.defaultMaxPixels)
        #expect(command.paths == ["a.jpg"])
        #expect(command.detection.detectorOptions == FaceDetectorOptions())
    }

    @Test("options take their value as a separate word or after =")
    func optionValueForms() throws {
        let separate = try parse([
            "--mode", "accurate", "--min-face-size", "0.25", "--format", "jsonl", "--output", "o.csv", "x.png",
        ])
        let joined = try parse(["--mode=accurate", "--min-face-size=0.25", "--format=jsonl", "--output=o.csv", "x.png"])
        for command in [separate, joined] {
            #expect(command.detection.mode == .accurate)
            #expect(command.detection.minFaceSize == 0.25)
            #expect(command.format == .jsonl)
            #expect(command.output == "o.csv")
        }
    }

    @Test("flags map onto the detector's modes")
    func flagsMapToOptions() throws {
        let options = try parse([
            "--landmarks", "--contours", "--classify", "--mode", "accurate", "--format", "jsonl", "a.jpg",
        ])
            .detection.detectorOptions
        #expect(options.landmarkMode == .all)
        #expect(options.contourMode == .all)
        #expect(options.classificationMode == .all)
        #expect(options.performanceMode == .accurate)
        #expect(!options.isTrackingEnabled)
    }

    @Test("-- ends the options, so paths may start with a dash")
    func doubleDash() throws {
        let command = try parse(["--landmarks", "--", "--mode", "-x.jpg", "b.jpg"])
        #expect(command.paths == ["--mode", "-x.jpg", "b.jpg"])
        #expect(command.detection.mode == .fast)
    }

    @Test("options and paths may be interleaved and the last repeated value wins")
    func interleaving() throws {
        let command = try parse(["a.jpg", "--mode", "accurate", "b.jpg", "--mode", "fast"])
        #expect(command.paths == ["a.jpg", "b.jpg"])
        #expect(command.detection.mode == .fast)
    }

    @Test(
        "usage errors exit 64 and name the offending option",
        arguments: [
            (["analyze", "--min-face-size", "0", "a.jpg"], "--min-face-size"),
            (["analyze", "--min-face-size", "abc", "a.jpg"], "--min-face-size"),
            (["analyze", "--min-face-size", "1.5", "a.jpg"], "--min-face-size"),
            (["analyze", "--min-face-size=-0.2", "a.jpg"], "--min-face-size"),
            (["analyze", "--min-face-size", "nan", "a.jpg"], "--min-face-size"),
            (["analyze", "--mode", "slow", "a.jpg"], "--mode"),
            (["analyze", "--format", "xml", "a.jpg"], "--format"),
            (["analyze", "--max-pixels", "0", "a.jpg"], "--max-pixels"),
            (["analyze", "--model-dir", "/nonexistent/models", "a.jpg"], "--model-dir"),
            (["track", "--model-dir", "/nonexistent/models", "a.mp4"], "--model-dir"),
            (["group", "--model-dir", "/nonexistent/models", "--output", "people", "a.jpg"], "--model-dir"),
            (["annotate", "--model-dir", "/nonexistent/models", "--output", "drawn", "a.jpg"], "--model-dir"),
            (["report", "--model-dir", "/nonexistent/models", "--output", "site", "a.jpg"], "--model-dir"),
            (["analyze", "--max-pixels", "many", "a.jpg"], "--max-pixels"),
            (["analyze", "--bogus", "a.jpg"], "--bogus"),
            (["analyze", "-x", "a.jpg"], "-x"),
            (["analyze", "--landmarks=yes", "a.jpg"], "--landmarks"),
            (["analyze", "a.jpg", "--output"], "--output"),
            (["analyze", "--output=", "a.jpg"], "--output"),
            (["analyze", "--format"], "--format"),
            (["analyze", "--landmarks"], "<path>"),
            (["frobnicate"], "frobnicate"),
            (["--frobnicate"], "--frobnicate"),
            (["help", "frobnicate"], "frobnicate"),
        ])
    func usageErrors(arguments: [String], named: String) {
        let run = TestSupport.run(arguments)
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        let lines = run.stderrLines
        #expect(lines.first?.hasPrefix("Error: ") == true)
        #expect(lines.first?.contains(named) == true, "\(lines.first ?? "")")
        #expect(lines.dropFirst().first?.hasPrefix("Usage: facekit") == true)
    }

    @Test("a --model-dir that is not a folder is refused, saying why, rather than passed over")
    func modelDirectoryMustBeAFolder() throws {
        try TestSupport.withTemporaryFolder { folder in
            let file = try TestSupport.makeFile(folder, "models.txt")
            let missing = TestSupport.run(["analyze", "--model-dir", folder + "/modles", TestSupport.astronaut])
            #expect(missing.status == 64)
            #expect(
                missing.stderrLines.first
                    == "Error: The value '\(folder)/modles' is invalid for '--model-dir <dir>': no such folder "
                    + "(the models are looked for there before the usual places)")
            let notFolder = TestSupport.run(["analyze", "--model-dir", file, TestSupport.astronaut])
            #expect(notFolder.status == 64)
            #expect(notFolder.stderrLines.first?.contains("it is a file, not a folder") == true, "\(notFolder.stderr)")
        }
    }

    @Test("--contours is a valid analyze option with JSON Lines output")
    func contoursAccepted() throws {
        #expect(try parse(["--contours", "--format", "jsonl", "a.jpg"]).detection.contours)
        #expect(try parse(["--format=jsonl", "--contours", "a.jpg"]).detection.contours)
    }

    @Test(
        "--contours with CSV output, which has no contour columns, is a usage error pointing to --format jsonl",
        arguments: [["--contours", "a.jpg"], ["--contours", "--format", "csv", "a.jpg"]])
    func contoursNeedJSONLines(arguments: [String]) {
        let run = TestSupport.run(["analyze"] + arguments)
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderrLines.first
                == "Error: '--contours' needs '--format jsonl': the CSV table has no contour columns "
                + "(15 contours, 133 points per face), so they would not be written")
        #expect(run.stderrLines.dropFirst().first?.hasPrefix("Usage: facekit analyze") == true)
    }

    @Test("--jobs above 4 per core is a usage error that gives the maximum; the maximum itself is accepted")
    func jobsCapped() throws {
        let maximum = 4 * ProcessInfo.processInfo.activeProcessorCount
        #expect(AnalyzeCommand.maximumJobs == maximum)
        for jobs in ["100000", String(maximum + 1)] {
            // Parsed only, never run: an accepted --jobs 100000 would start loading 100000 detectors.
            do {
                _ = try CommandParser(root: FaceKitCommand.self).parse(["analyze", "--jobs", jobs, "a.jpg"])
                Issue.record("--jobs \(jobs) was accepted")
            } catch {
                #expect(
                    error.error.message.hasPrefix(
                        "The value '\(jobs)' is invalid for '--jobs <n>': it must be at most \(maximum), 4 per core"),
                    "\(error.error.message)")
            }
        }
        #expect(try parse(["--jobs", String(maximum), "a.jpg"]).jobs == maximum)
    }

    @Test(
        "--jobs counts the cores the process may use: under taskset -c 0, at most 4",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset") && TestSupport.executable != nil))
    func jobsFollowAffinity() throws {
        let run = try TestSupport.runProcess(
            "/usr/bin/taskset", ["-c", "0", TestSupport.executable!, "analyze", "--jobs", "5", TestSupport.astronaut],
            killedAfter: 300)
        #expect(run.status == 64)
        #expect(
            run.stderr.hasPrefix("Error: The value '5' is invalid for '--jobs <n>': it must be at most 4, 4 per core (1 usable here)"),
            "\(run.stderr)")
    }

    @Test("a FaceKit option error is restated with the command-line option")
    func optionErrorRestated() {
        let error = DetectionFlags.usageError(.invalidOption(name: "minFaceSize", reason: "must be in (0, 1]"))
        #expect(error.message == "Invalid '--min-face-size': must be in (0, 1]")
    }

    @Test("every detector option a flag sets is named by a flag the detection group defines")
    func optionFlagsExist() {
        let names = Set(
            DetectionFlags.arguments(\AnalyzeCommand.detection, contoursHelp: "").map { "--" + $0.name })
        for option in FaceDetectorOptions.Option.allCases {
            guard let flag = DetectionFlags.flag(setting: option) else { continue }
            #expect(names.contains(flag), "\(option) -> \(flag)")
        }
        #expect(DetectionFlags().minFaceSize == FaceDetectorOptions().minFaceSize)
    }

    @Test("the value a user typed is repeated in the error")
    func valueRepeated() {
        #expect(TestSupport.run(["analyze", "--min-face-size", "0", "a"]).stderrLines.first?.contains("'0'") == true)
        #expect(
            TestSupport.run(["analyze", "--mode", "slow", "a"]).stderrLines.first
                == "Error: The value 'slow' is invalid for '--mode <mode>'. Please provide one of 'fast' or 'accurate'."
        )
    }
}

@Suite("Help and version")
struct HelpTests {
    @Test("--version prints 0.1.0")
    func version() {
        let run = TestSupport.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout == "0.1.0\n")
        #expect(run.stderr.isEmpty)
    }

    @Test("help is reachable in every usual way", arguments: [[], ["--help"], ["-h"], ["help"]])
    func rootHelp(arguments: [String]) {
        let run = TestSupport.run(arguments)
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("OVERVIEW: "))
        #expect(run.stdout.contains("\nUSAGE: facekit <subcommand>\n"))
        #expect(run.stdout.contains("\nSUBCOMMANDS:\n  analyze "))
        #expect(run.stdout.contains("  --version "))
    }

    @Test(
        "analyze help appears for --help, -h and help analyze, even after other options",
        arguments: [
            ["analyze", "--help"], ["analyze", "-h"], ["help", "analyze"], ["analyze", "--mode", "slow", "--help"],
        ])
    func analyzeHelp(arguments: [String]) {
        let run = TestSupport.run(arguments)
        #expect(run.status == 0)
        #expect(run.stdout == HelpFormatter.help(for: [FaceKitCommand.self, AnalyzeCommand.self]))
    }

    @Test("analyze help has the OVERVIEW, USAGE, ARGUMENTS, OPTIONS layout and lists every option")
    func analyzeHelpLayout() {
        let text = HelpFormatter.help(for: [FaceKitCommand.self, AnalyzeCommand.self])
        let headings = text.split(separator: "\n").filter {
            $0.first?.isUppercase == true && $0.contains(":") && !$0.hasPrefix(" ")
        }
        .map { String($0.prefix { $0 != ":" }) }
        #expect(headings.filter { $0.allSatisfy { $0.isUppercase } } == ["OVERVIEW", "USAGE", "ARGUMENTS", "OPTIONS"])
        #expect(text.contains("\nUSAGE: facekit analyze [<options>] <path> ...\n"))
        #expect(text.contains("\n  <path>                  An image file"))
        for option in [
            "--mode <mode>", "--landmarks", "--contours", "--classify", "--min-face-size <fraction>",
            "--format <format>", "--output <file>", "--model-dir <dir>", "--max-pixels <n>", "-h, --help",
        ] {
            #expect(text.contains("\n  \(option)"), "\(option) missing from help")
        }
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("(values: fast, accurate; default: fast)"))
        #expect(words.contains("(default: 0.1)"))
        #expect(words.contains("(values: csv, jsonl; default: csv)"))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= HelpFormatter.width })
    }
}
