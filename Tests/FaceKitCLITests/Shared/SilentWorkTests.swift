import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// No long step is silent: `group` and `report` show a video's progress while they track it, as
/// `track` does, and a resumable run stopped by Ctrl-C says how to continue it.
@Suite("silent work")
struct SilentWorkTests {
    @Test(
        "the command that continues a run is the one given, with --resume, in words a shell reads back",
        arguments: [
            (["analyze", "--output", "faces.csv", "photos/"], "facekit analyze --resume --output faces.csv photos/", false),
            (["analyze", "--resume", "--output", "a b.csv", "it's/"], #"facekit analyze --resume --output 'a b.csv' 'it'\''s/'"#, false),
            (
                ["track", "--summary", "s.csv", "--output", "t.csv", "--summary=x.csv", "clip.mp4"],
                "facekit track --resume --output t.csv clip.mp4", true
            ),
        ])
    func resumeHint(arguments: [String], command: String, withoutSummary: Bool) {
        let line = ResumeHint.line(arguments: arguments, program: "facekit")
        #expect(line.hasPrefix("facekit: interrupted; to continue where it stopped, run: " + command))
        #expect(line.hasSuffix("(without --summary, which --resume cannot continue)") == withoutSummary, "\(line)")
        // Run by its path, the program is named as it was run, which a shell runs again.
        let built = ResumeHint.line(arguments: arguments, program: ".build/release/facekit")
        #expect(built.hasPrefix("facekit: interrupted; to continue where it stopped, run: .build/release/" + command))
        let spaced = ResumeHint.line(arguments: arguments, program: "/opt/face kit/facekit")
        #expect(spaced.contains("run: '/opt/face kit/facekit' " + command.dropFirst("facekit ".count)), "\(spaced)")
    }

    /// Starts the built facekit in `folder`, sends it SIGINT once `ready()` holds, and returns
    /// how it ended and its standard error.
    static func interrupt(
        _ arguments: [String], in folder: String, standardOutput: String? = nil, when ready: () -> Bool
    ) throws -> (reason: Process.TerminationReason, status: Int32, stderr: String) {
        let process = Process()
        // The test runner may ignore SIGINT, which its children would inherit (and facekit keeps
        // a signal it was started ignoring ignored, as nohup asks): env restores the default.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--default-signal=INT", try #require(TestSupport.executable)] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let err = Pipe()
        process.standardError = err
        if let standardOutput {
            FileManager.default.createFile(atPath: standardOutput, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: standardOutput))
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while !ready() && process.isRunning && Date() < deadline { usleep(20_000) }
        try #require(process.isRunning, "the run ended before it could be interrupted")
        kill(process.processIdentifier, SIGINT)
        let killer = Thread {
            sleep(60)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        killer.start()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus, text)
    }

    /// Whether the journal at `path` has a checkpoint after its header.
    static func hasCheckpoint(_ path: String) -> Bool {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").count >= 2
    }

    /// Runs the command an interrupted run printed, as printed: it names the built facekit by
    /// the path it was run as.
    static func runHint(_ stderr: String, in folder: String) throws -> TestSupport.Run {
        let executable = try #require(TestSupport.executable)
        let marker = "to continue where it stopped, run: " + ResumeHint.shellWord(executable) + " "
        let line = try #require(stderr.split(separator: "\n").last.map(String.init), "nothing on stderr")
        let range = try #require(line.range(of: marker), "no resume hint naming \(executable): \(stderr)")
        var command = String(line[range.upperBound...])
        if let note = command.range(of: "   (without") { command = String(command[..<note.lowerBound]) }
        return try TestSupport.runProcess(
            "/bin/sh", ["-c", ResumeHint.shellWord(executable) + " " + command], in: folder, killedAfter: 600)
    }

    @Test("analyze --output stopped by SIGINT ends with the command that continues it, and that command does", .needsModels)
    func analyzeInterrupted() throws {
        try TestSupport.withTemporaryFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/my photos", withIntermediateDirectories: false)
            for index in 0..<400 {
                try FileManager.default.createSymbolicLink(
                    atPath: folder + "/my photos/\(1000 + index).png", withDestinationPath: TestSupport.astronaut)
            }
            let output = "results/faces.csv"
            let stopped = try Self.interrupt(
                ["analyze", "--model-dir", TestSupport.modelDirectory!, "--jobs", "1", "--output", output, "my photos"],
                in: folder, when: { Self.hasCheckpoint(folder + "/" + output + ".journal") })
            #expect(stopped.reason == .uncaughtSignal && stopped.status == SIGINT, "\(stopped)")
            let last = stopped.stderr.split(separator: "\n").last.map(String.init) ?? ""
            let expected =
                "facekit: interrupted; to continue where it stopped, run: \(ResumeHint.shellWord(TestSupport.executable!)) "
                + "analyze --resume --model-dir "
                + TestSupport.modelDirectory! + " --jobs 1 --output results/faces.csv 'my photos'"
            #expect(last == expected, "\(stopped.stderr)")
            let resumed = try Self.runHint(stopped.stderr, in: folder)
            #expect(resumed.status == 0, "\(resumed.stderr)")
            let rows = try String(contentsOfFile: folder + "/" + output, encoding: .utf8).split(separator: "\n")
            #expect(rows.count == 401)
        }
    }

    @Test("analyze to standard output stopped by SIGINT says what it left and how a run can be continued", .needsModels)
    func standardOutputInterrupted() throws {
        try TestSupport.withTemporaryFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: false)
            for index in 0..<400 {
                try FileManager.default.createSymbolicLink(
                    atPath: folder + "/photos/\(1000 + index).png", withDestinationPath: TestSupport.astronaut)
            }
            // As README's `> faces.csv`; long rows (the 68 points), so that the first 64 KB are
            // written out well before the end.
            let table = folder + "/faces.csv"
            let stopped = try Self.interrupt(
                ["analyze", "--model-dir", TestSupport.modelDirectory!, "--jobs", "1", "--points68", "photos"],
                in: folder, standardOutput: table,
                when: { ((try? FileManager.default.attributesOfItem(atPath: table)[.size] as? Int) ?? 0) > 0 })
            #expect(stopped.reason == .uncaughtSignal && stopped.status == SIGINT, "\(stopped)")
            #expect(
                stopped.stderr.split(separator: "\n").last.map(String.init)
                    == "facekit: interrupted; the rows not yet written to standard output are lost, and its last row "
                    + "may be cut short; a run written with --output <file> can be continued where it stopped, "
                    + "with --resume",
                "\(stopped.stderr)")
            let rows = try String(contentsOfFile: table, encoding: .utf8).split(separator: "\n")
            #expect(rows.count >= 3 && rows.count < 401, "stopped part way: \(rows.count) lines")
        }
    }

    @Test("track --output --summary stopped by SIGINT says to continue with --resume and without --summary", .needsModels)
    func trackInterrupted() throws {
        try TestSupport.withTemporaryFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/videos", withIntermediateDirectories: false)
            for index in 0..<30 {
                try FileManager.default.createSymbolicLink(
                    atPath: folder + "/videos/\(100 + index).mp4", withDestinationPath: TrackCommandTests.crossing)
            }
            let stopped = try Self.interrupt(
                [
                    "track", "--model-dir", TestSupport.modelDirectory!, "--summary", "summary.csv", "--output",
                    "tracks.csv", "videos",
                ], in: folder, when: { Self.hasCheckpoint(folder + "/tracks.csv.journal") })
            #expect(stopped.reason == .uncaughtSignal && stopped.status == SIGINT, "\(stopped)")
            let last = stopped.stderr.split(separator: "\n").last.map(String.init) ?? ""
            let expected =
                "facekit: interrupted; to continue where it stopped, run: \(ResumeHint.shellWord(TestSupport.executable!)) "
                + "track --resume --model-dir "
                + TestSupport.modelDirectory! + " --output tracks.csv videos   (without --summary, which --resume "
                + "cannot continue)"
            #expect(last == expected, "\(stopped.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/tracks.csv"))
            let resumed = try Self.runHint(stopped.stderr, in: folder)
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(FileManager.default.fileExists(atPath: folder + "/tracks.csv"))
        }
    }

    @Test("a run that completed says nothing more when it ends", .needsModels)
    func completedSaysNothing() throws {
        try TestSupport.withTemporaryFolder { folder in
            let run = try TestSupport.runProcess(
                try #require(TestSupport.executable),
                ["analyze", "--model-dir", TestSupport.modelDirectory!, "--output", "faces.csv", TestSupport.astronaut],
                in: folder)
            #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        }
    }

    /// Runs the built facekit with a pseudo-terminal as its standard error (util-linux's
    /// `script`) and returns what it drew.
    static func drawnOnTerminal(_ arguments: [String], in folder: String) throws -> String {
        func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        let command = "exec " + ([try #require(TestSupport.executable)] + arguments).map(quoted).joined(separator: " ")
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "100"
        environment["SHELL"] = "/bin/sh"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["--quiet", "--return", "--command", command, "/dev/null"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        return text
    }

    @Test(
        "group and report draw a video's progress line while they track it, as track does",
        .needsModels,
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script") && TestSupport.executable != nil),
        arguments: ["group", "report"])
    func videoProgress(command: String) throws {
        try TestSupport.withTemporaryFolder { folder in
            // Detecting on every frame makes the tracking long enough (seconds) for lines to be drawn.
            let drawn = try Self.drawnOnTerminal(
                [
                    command, "--model-dir", TestSupport.modelDirectory!, "--detection-interval", "1", "--output", "out",
                    TrackCommandTests.crossing,
                ], in: folder)
            let lines = drawn.components(separatedBy: "\r\u{1B}[K").filter { $0.contains("crossing.mp4: frame ") }
            #expect(!lines.isEmpty, "no progress line: \(drawn)")
            #expect(lines.allSatisfy { $0.contains(" of ~125") }, "\(lines)")
            if command == "group" { #expect(drawn.contains(" faces into people..."), "\(drawn)") }
        }
    }
}
