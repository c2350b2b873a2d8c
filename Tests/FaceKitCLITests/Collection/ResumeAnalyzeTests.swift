import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// `facekit analyze --output FILE --resume` after runs stopped part way.
@Suite("analyze --resume", .needsModels)
struct ResumeAnalyzeTests {
    typealias Fixture = PhotoCollectionFixture

    @Test(
        "a run stopped after some inputs and resumed writes exactly the file of an uninterrupted run",
        arguments: [1, 3])
    func resumeGivesSameFile(stopAfter: Int) throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let reference = Fixture.analyze(["--landmarks", "--output", folder + "/reference.csv", photos])
            #expect(reference.status == 1)
            #expect(reference.stderrLines.count == 1, "broken.jpg: \(reference.stderrLines)")

            let output = folder + "/faces.csv"
            let stopped = try Fixture.analyze(
                ["--landmarks", "--jobs", "2", "--output", output, photos], stopAfter: stopAfter)
            #expect(!FileManager.default.fileExists(atPath: output))
            #expect(
                try Fixture.listing(folder) == [
                    "faces.csv.journal", "faces.csv.partial", "photos", "reference.csv", "reference.csv.journal",
                ])

            let resumed = Fixture.analyze(["--landmarks", "--resume", "--output", output, photos])
            #expect(try Fixture.read(output) == Fixture.read(folder + "/reference.csv"))
            #expect(
                try Fixture.listing(folder) == [
                    "faces.csv", "faces.csv.journal", "photos", "reference.csv", "reference.csv.journal",
                ])
            // broken.jpg, the last input, fails once, in whichever run reached it; the exit
            // status covers the whole collection.
            #expect(stopped.stderrLines.count + resumed.stderrLines.count == 1)
            #expect(resumed.status == 1)
        }
    }

    @Test("bytes written after the last checkpoint and a torn journal line are dropped on resume")
    func tornTail() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let reference = Fixture.analyze(["--format", "jsonl", photos])
            let output = folder + "/faces.jsonl"
            _ = try Fixture.analyze(["--format", "jsonl", "--output", output, photos], stopAfter: 2)
            for (file, tail) in [
                (output + ".partial", "{\"source\":\"half a ro"), (output + ".journal", "{\"bytes\":9"),
            ] {
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
                try handle.seekToEnd()
                try handle.write(contentsOf: Data(tail.utf8))
                try handle.close()
            }
            let resumed = Fixture.analyze(["--format", "jsonl", "--resume", "--output", output, photos])
            #expect(resumed.status == 1)
            #expect(try String(contentsOfFile: output, encoding: .utf8) == reference.stdout)
        }
    }

    @Test("a complete journal line that no run writes is refused by file and line, and nothing changes")
    func damagedLine() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let output = folder + "/faces.csv"
            _ = try Fixture.analyze(["--output", output, photos], stopAfter: 2)
            let journal = output + ".journal"
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: journal))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("{\"bytes\":9\n".utf8))
            try handle.close()
            let before = try Fixture.read(journal)
            let partial = try Fixture.read(output + ".partial")
            let line = String(decoding: before, as: UTF8.self).split(separator: "\n").count
            let resumed = Fixture.analyze(["--resume", "--output", output, photos])
            #expect(resumed.status == 1)
            #expect(
                resumed.stderrLines == [
                    "facekit: \(journal): line \(line) is damaged (not a checkpoint), so how far the run got is not "
                        + "known; to start over, run the command again without --resume, which replaces the journal"
                ])
            #expect(try Fixture.read(journal) == before)
            #expect(try Fixture.read(output + ".partial") == partial)
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }

    @Test(
        "a first line turned into another command's or version's is refused by --resume as status refuses it, and nothing changes",
        arguments: [("facekit analyze", "facekit analyzf"), ("\"version\":1", "\"version\":2"), ("facekit analyze", "facekit track")],
        [false, true])
    func damagedFirstLine(change: (String, String), complete: Bool) throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let output = folder + "/faces.csv"
            // A shard keeps its journal once complete; a stopped run keeps it with the partial file.
            if complete {
                _ = Fixture.analyze(["--shard", "1/1", "--output", output, photos])
            } else {
                _ = try Fixture.analyze(["--shard", "1/1", "--output", output, photos], stopAfter: 2)
            }
            let journal = output + ".journal"
            var lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            try #require(lines.count >= 3 && lines[0].contains(change.0))
            lines[0] = Substring(lines[0].replacingOccurrences(of: change.0, with: change.1))
            try lines.joined(separator: "\n").write(toFile: journal, atomically: false, encoding: .utf8)
            let before = try Fixture.listing(folder).map { name in (name, try? Fixture.read(folder + "/" + name)) }

            let resumed = Fixture.analyze(["--shard", "1/1", "--resume", "--output", output, photos])
            #expect(resumed.status == 1)
            #expect(
                resumed.stderrLines == [
                    "facekit: \(journal): line 1 is damaged (not the first line of a facekit analyze journal: another "
                        + "command's or version's, or damaged), so how far the run got is not known; to start over, "
                        + "run the command again without --resume, which replaces the journal"
                ])
            let after = try Fixture.listing(folder).map { name in (name, try? Fixture.read(folder + "/" + name)) }
            #expect(after.map(\.0) == before.map(\.0) && zip(after, before).allSatisfy { $0.1 == $1.1 }, "nothing changed")
            let status = TestSupport.run(["status", output])
            #expect(status.status == 1, "status refuses the same journal: \(status.stderr)")
        }
    }

    @Test("without --resume a run starts again and replaces what an interrupted one left")
    func freshRunReplaces() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let output = folder + "/faces.csv"
            _ = try Fixture.analyze(["--output", output, photos], stopAfter: 3)
            try Fixture.make(in: folder + "/more")
            let run = Fixture.analyze(["--output", output, photos, folder + "/more/photos/a.png"])
            #expect(run.stderrLines.count == 1)
            let sources = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").dropFirst()
                .map { String($0.prefix { $0 != "," }) }
            // broken.jpg has its failed row too.
            #expect(sources == Fixture.walkOrder.map { photos + "/" + $0 } + [folder + "/more/photos/a.png"])
            #expect(try Fixture.listing(folder) == ["faces.csv", "faces.csv.journal", "more", "photos"])
        }
    }

    @Test("a resume with other options is a usage error naming them, and changes nothing")
    func otherOptions() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let output = folder + "/faces.csv"
            _ = try Fixture.analyze(["--output", output, photos], stopAfter: 1)
            let partial = try Fixture.read(output + ".partial")
            let journal = try Fixture.read(output + ".journal")
            let run = Fixture.analyze(["--classify", "--min-face-size", "0.2", "--resume", "--output", output, photos])
            #expect(run.status == 64)
            #expect(
                run.stderr.hasPrefix(
                    "Error: --resume: \(output) was started with other options (interrupted run: no --classify, "
                        + "--min-face-size 0.1; this run: --classify, --min-face-size 0.2)"), "\(run.stderr)")
            #expect(try Fixture.read(output + ".partial") == partial)
            #expect(try Fixture.read(output + ".journal") == journal)
            let otherPaths = Fixture.analyze(["--resume", "--output", output, photos + "/b"])
            #expect(otherPaths.status == 64)
            #expect(otherPaths.stderr.contains("the paths \(photos)/b"))
            // Rows kept under one threshold must not be continued under another.
            let otherScore = Fixture.analyze(["--min-detection-score", "0.5", "--resume", "--output", output, photos])
            #expect(otherScore.status == 64)
            #expect(otherScore.stderr.contains("this run: --min-detection-score 0.5)"), "\(otherScore.stderr)")
            #expect(try Fixture.read(output + ".journal") == journal)
        }
    }

    @Test("a resume over a collection whose first files changed is refused")
    func collectionChanged() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let output = folder + "/faces.csv"
            _ = try Fixture.analyze(["--output", output, photos], stopAfter: 2)
            try TestSupport.makeFile(photos, "a0.png", contents: Fixture.read(photos + "/a.png"))
            let run = Fixture.analyze(["--resume", "--output", output, photos])
            #expect(run.status == 1)
            #expect(
                run.stderr.hasPrefix("facekit: \(output): cannot resume: the first 2 files are not those"),
                "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }

    @Test("--resume on a complete output of the same inputs and options does nothing and succeeds; with nothing there it starts afresh")
    func completeOrNothing() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let output = folder + "/faces.csv"
            let first = Fixture.analyze(["--resume", "--output", output, photos])
            #expect(first.status == 1)
            #expect(first.stderrLines.count == 1)
            let written = try Fixture.read(output)
            let journal = try Fixture.read(output + ".journal")
            // The journal stays, ending with its complete checkpoint: the record of what made the file.
            let lines = String(decoding: journal, as: UTF8.self).split(separator: "\n")
            #expect(lines.count >= 2 && lines.last!.contains("\"complete\":true"), "\(lines)")
            let again = Fixture.analyze(["--resume", "--jobs", "2", "--output", output, photos])
            #expect(again.status == 0)
            #expect(again.stderr.isEmpty)
            #expect(try Fixture.read(output) == written)
            #expect(try Fixture.read(output + ".journal") == journal)
            #expect(try Fixture.listing(folder) == ["faces.csv", "faces.csv.journal", "photos"])
        }
    }

    @Test("a run whose only step left was the rename is completed by --resume")
    func renameLeft() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let output = folder + "/faces.csv"
            _ = Fixture.analyze(["--output", folder + "/reference.csv", photos])
            // Stopped after all 5 inputs: every row is written and checkpointed, but not complete.
            _ = try Fixture.analyze(["--output", output, photos], stopAfter: 5)
            // Mark the last checkpoint complete, as a run killed between it and the rename leaves it.
            var journal = try String(contentsOfFile: output + ".journal", encoding: .utf8)
            let last = try #require(journal.range(of: "\"complete\":false", options: .backwards))
            journal.replaceSubrange(last, with: "\"complete\":true")
            try journal.write(toFile: output + ".journal", atomically: false, encoding: .utf8)
            let run = Fixture.analyze(["--resume", "--output", output, photos])
            #expect(run.status == 0)
            #expect(run.stderr.isEmpty)
            #expect(try Fixture.read(output) == Fixture.read(folder + "/reference.csv"))
            #expect(
                try Fixture.listing(folder) == [
                    "faces.csv", "faces.csv.journal", "photos", "reference.csv", "reference.csv.journal",
                ])
        }
    }

    @Test("--resume without --output is a usage error")
    func needsOutput() {
        let run = Fixture.analyze(["--resume", TestSupport.astronaut])
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("Error: '--resume' needs '--output <file>'"))
    }
}

/// The built binary killed with SIGKILL in the middle of a collection, then resumed.
@Suite(
    "analyze --resume after SIGKILL", .needsModels,
    .enabled(if: TestSupport.executable != nil, "the facekit executable was not found next to the test bundle"))
struct KilledAnalyzeTests {
    typealias Fixture = PhotoCollectionFixture

    @Test("a run killed with SIGKILL and resumed writes exactly the file of an uninterrupted run")
    func sigkill() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            // After the five inputs, 300 that fail, each with a line on standard error. Standard
            // error is a pipe of one page that this test drains slowly, then not at all: the run
            // cannot get more than a page of lines ahead of the reading, and never finishes
            // once the reading stops, so it is surely killed part way, after a checkpoint.
            let failing = (0..<300).map { photos + "/zy-" + String(1000 + $0).dropFirst() + ".jpg" }
            for path in failing { try Data("not a photo".utf8).write(to: URL(fileURLWithPath: path)) }
            let output = folder + "/faces.csv"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try #require(TestSupport.executable))
            process.arguments = [
                "analyze", "--model-dir", try #require(TestSupport.modelDirectory), "--jobs", "1", "--output", output,
                photos,
            ]
            let errors = Pipe()
            let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ
            #expect(fcntl(errors.fileHandleForWriting.fileDescriptor, setPipeSize, 4096) >= 0)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            try errors.fileHandleForWriting.close()
            /// The inputs done at the journal's last checkpoint.
            func checkpointed() -> Int {
                let journal = (try? String(contentsOfFile: output + ".journal", encoding: .utf8)) ?? ""
                guard let last = journal.split(separator: "\n").last, let key = last.range(of: #""inputs":"#) else {
                    return 0
                }
                return Int(last[key.upperBound...].prefix { $0.isNumber }) ?? 0
            }
            // Read a little at a time, however long it takes, until a checkpoint after the five.
            var chunk = [UInt8](repeating: 0, count: 128)
            let reading = errors.fileHandleForReading.fileDescriptor
            while checkpointed() < 5, chunk.withUnsafeMutableBytes({ read(reading, $0.baseAddress, $0.count) }) > 0 {
                usleep(20_000)
            }
            let done = checkpointed()
            #expect(done >= 5 && done < 5 + failing.count)
            #expect(process.isRunning)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            #expect(!FileManager.default.fileExists(atPath: output))

            // The inputs after the checkpoint may change: the failing ones go, and a photo comes.
            for path in failing.dropFirst(max(0, done - 5)) { try FileManager.default.removeItem(atPath: path) }
            try TestSupport.makeFile(photos, "zz.png", contents: Fixture.read(photos + "/a.png"))
            let reference = Fixture.analyze([photos])
            let resumed = Fixture.analyze(["--resume", "--output", output, photos])
            #expect(resumed.status == 1, "broken.jpg failed before the kill")
            #expect(resumed.stderr.isEmpty, "and is not reported again")
            #expect(try String(contentsOfFile: output, encoding: .utf8) == reference.stdout)
            #expect(reference.stdoutLines.last?.hasPrefix(photos + "/zz.png,") == true)
        }
    }
}
