import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitArguments
@testable import FaceKitCLI

/// Messages a new user meets when they spell something the way another tool would, or give a
/// command the wrong kind of file: each names what was meant, the file, and the fix.
@Suite("messages")
struct MessageTests {
    @Test(
        "a subcommand that facekit spells as an option points to the option, with the value given",
        arguments: [
            (["completion", "bash"], "Did you mean 'facekit --generate-completion-script bash'?"),
            (["completion"], "Did you mean 'facekit --generate-completion-script <shell>'?"),
            (["completion", "tcsh"], "Did you mean 'facekit --generate-completion-script <shell>'?"),
            (["version"], "Did you mean 'facekit --version'?"),
        ])
    func subcommandSpeltAsOption(arguments: [String], suggestion: String) {
        let run = TestSupport.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderrLines.first == "Error: Unknown subcommand '\(arguments[0])'. " + suggestion, "\(run.stderr)")
    }

    @Test("the suggested completion command is one that works")
    func suggestedCompletionWorks() {
        let run = TestSupport.run(["--generate-completion-script", "bash"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("complete"))
    }

    @Test(
        "an option with a word left out gets the option it was meant for",
        arguments: [
            (["analyze", "--min-size", "0.05", "x.jpg"], "--min-size", "--min-face-size"),
            (["track", "--interval", "3", "a.mp4"], "--interval", "--detection-interval"),
            (["report", "--faces", "3", "--output", "r", "a.csv"], "--faces", "--faces-per-person"),
        ])
    func wordLeftOut(arguments: [String], typed: String, meant: String) {
        let run = TestSupport.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderrLines.first == "Error: Unknown option '\(typed)'. Did you mean '\(meant)'?", "\(run.stderr)")
    }

    @Test("group's usage line names the --output it cannot run without")
    func groupUsageNamesOutput() {
        let run = TestSupport.run(["group", "photos/"])
        #expect(run.status == 64)
        #expect(run.stderrLines.first == "Error: Missing expected option '--output <dir>'", "\(run.stderr)")
        #expect(run.stderrLines.dropFirst().first == "Usage: facekit group [<options>] --output <dir> <input> ...")
        #expect(TestSupport.run(["group", "--help"]).stdout.contains("USAGE: facekit group [<options>] --output <dir> <input> ..."))
    }

    @Test("every command's usage line is the heading docs/cli.md gives it")
    func usageLinesMatchTheDocs() throws {
        let docs = try String(contentsOf: TestData.repository.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let headings = Set(
            docs.split(separator: "\n").filter { $0.hasPrefix("## `facekit ") }.map { String($0.dropFirst(4).dropLast()) })
        for command in FaceKitCommand.configuration.subcommands {
            let usage = HelpFormatter.usage(for: [FaceKitCommand.self, command])
            #expect(headings.contains(usage), "docs/cli.md has no heading `\(usage)`")
        }
    }

    @Test("help and docs/cli.md give accurate mode's cost as docs/benchmarks.md measured it")
    func accurateModeCost() throws {
        let cost = DetectionFlags.accurateModeCost
        let figure = try #require(cost.split(separator: " ").dropFirst().first)  // "3x"
        let help = TestSupport.run(["analyze", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("at \(cost)."), "\(help)")
        func text(_ path: String) throws -> String {
            try String(contentsOf: TestData.repository.appendingPathComponent(path), encoding: .utf8)
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        #expect(try text("docs/cli.md").contains("at \(cost) (docs/benchmarks.md)"))
        #expect(try text("docs/benchmarks.md").contains("Accurate mode costs about \(figure) fast mode"))
        #expect(try text("Sources/FaceKit/Options/FaceDetectorOptions.swift").contains("about \(figure.dropLast()) times the cost"))
    }

    @Test("a missing table given to report is named, with the fix, in FaceKit's words")
    func missingTable() throws {
        try TestSupport.withTemporaryFolder { folder in
            let run = TestSupport.run(["report", "--output", folder + "/report", folder + "/faces.csv"])
            #expect(run.status == 1)
            let expected =
                "facekit: \(folder)/faces.csv: cannot read the table: No such file or directory; write it first "
                + "(facekit analyze --output \(folder)/faces.csv photos/, or track or group), "
                + "or give report the photos and videos to analyse itself"
            #expect(run.stderrLines.first == expected, "\(run.stderr)")
            #expect(!run.stderr.contains("The operation could not be completed"))
        }
    }

    @Test("an output folder with a file in its way is named in FaceKit's words, by report as by group")
    func fileInTheWayOfTheOutputFolder() throws {
        try TestSupport.withTemporaryFolder { folder in
            let file = try TestSupport.makeFile(folder, "taken")
            let table = try TestSupport.makeFile(
                folder, "faces.csv", contents: Data("source,frame,timestamp_ms,face,tracking_id,x,y,width,height\n".utf8))
            let report = TestSupport.run(["report", "--output", file + "/report", table])
            #expect(report.status == 1)
            #expect(report.stderrLines.last == "facekit: \(file): cannot make folder: it is a file, not a folder", "\(report.stderr)")
            let group = TestSupport.run(["group", "--output", file + "/people", folder + "/faces.jsonl"])
            #expect(group.stderrLines.last == "facekit: \(file): cannot make folder: it is a file, not a folder", "\(group.stderr)")
        }
    }

    @Test("a missing JSON Lines file given to group is named with the command that writes it")
    func groupMissingJSONLines() throws {
        try TestSupport.withTemporaryFolder { folder in
            let lines = folder + "/faces.jsonl"
            let run = TestSupport.run(["group", "--quiet", "--output", folder + "/people", lines])
            #expect(run.status == 1)
            #expect(
                run.stderrLines.first
                    == "facekit: \(lines): cannot read file: No such file or directory; write it first with "
                    + "facekit analyze --descriptors --format jsonl --output \(lines) photos/", "\(run.stderr)")
        }
    }

    @Test("group given a CSV table says that it needs analyze --descriptors JSON Lines", .needsModels)
    func groupGivenCSV() throws {
        try TestSupport.withTemporaryFolder { folder in
            let table = folder + "/faces.csv"
            let analysed = TestSupport.analyze(["--output", table, TestSupport.astronaut])
            try #require(analysed.status == 0, "\(analysed.stderr)")
            let run = TestSupport.run([
                "group", "--model-dir", TestSupport.modelDirectory ?? "/nonexistent", "--quiet", "--output",
                folder + "/people", table,
            ])
            #expect(run.status == 1)
            let line = try #require(run.stderrLines.first)
            #expect(line.hasPrefix("facekit: \(table): not a readable image"), "\(line)")
            #expect(line.contains("not a CSV table (it holds no descriptors)"), "\(line)")
            #expect(line.contains("facekit analyze --descriptors --format jsonl"), "\(line)")
        }
    }

    @Test("group reads analyze's JSON Lines named .ndjson, as report does", .needsModels)
    func groupReadsNDJSON() throws {
        try TestSupport.withTemporaryFolder { folder in
            let lines = folder + "/faces.ndjson"
            let analysed = TestSupport.analyze([
                "--descriptors", "--format", "jsonl", "--output", lines, TestSupport.astronaut,
            ])
            try #require(analysed.status == 0, "\(analysed.stderr)")
            let run = TestSupport.run(["group", "--quiet", "--output", folder + "/people", lines])
            #expect(run.status == 0, "\(run.stderr)")
            let faces = try String(contentsOfFile: folder + "/people/faces.csv", encoding: .utf8)
            #expect(faces.split(separator: "\n").count == 2)
        }
    }
}
