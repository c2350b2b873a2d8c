import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `facekit merge`, and `facekit status`, which reports the same problems, over the outputs of
/// `analyze --shard K/N --output`.
@Suite("merge command", .needsModels)
struct MergeCommandTests {
    typealias Fixture = PhotoCollectionFixture

    /// Runs `facekit merge <arguments>` in process.
    static func merge(_ arguments: [String]) -> TestSupport.Run { TestSupport.run(["merge"] + arguments) }

    /// Runs every shard `k/n` of `photos` to `folder/<name>-k.csv` (or `.jsonl`) and returns the files.
    static func shards(
        _ n: Int, of photos: String, in folder: String, name: String = "faces", options: [String] = []
    ) -> [String] {
        let suffix = options.contains("jsonl") ? "jsonl" : "csv"
        return (1...n).map { k in
            let file = "\(folder)/\(name)-\(k).\(suffix)"
            _ = Fixture.analyze(options + ["--shard", "\(k)/\(n)", "--resume", "--output", file, photos])
            return file
        }
    }

    @Test("CSV shards given in any order merge into exactly the unsharded output, and the journals stay")
    func csvIdentical() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let whole = Fixture.analyze(["--landmarks", "--classify", photos])
            let files = Self.shards(3, of: photos, in: folder, options: ["--landmarks", "--classify"])
            let output = folder + "/all.csv"
            // As a shell glob would list them, and with a journal named instead of its output.
            let run = Self.merge(["--output", output, files[2], files[0] + ".journal", files[1]])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.isEmpty && run.stderr.isEmpty)
            #expect(try String(contentsOfFile: output, encoding: .utf8) == whole.stdout)
            let shardFiles: [String] = files.flatMap { [$0, $0 + ".journal"] }.map { String($0.dropFirst(folder.count + 1)) }
            #expect(try Fixture.listing(folder) == ["all.csv"] + shardFiles + ["photos"])
        }
    }

    @Test("JSON Lines shards, one of them empty, merge to standard output as the unsharded run writes it")
    func jsonlIdentical() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let whole = Fixture.analyze(["--format", "jsonl", photos])
            // Five inputs in six shards: shard 1 has none.
            let files = Self.shards(6, of: photos, in: folder, options: ["--format", "jsonl"])
            #expect(try Fixture.read(files[0]).isEmpty)
            let run = Self.merge(files.reversed())
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == whole.stdout)
        }
    }

    @Test(
        "the development photos in four shards merge into exactly the rows of one unsharded run",
        .needsSharedData)
    func developmentPhotos() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = TestData.shared("photos/face_recognition")
            let whole = TestSupport.analyze(["--jobs", "2", "--classify", photos])
            #expect(whole.status == 0, "\(whole.stderr)")
            #expect(whole.stdoutLines.count > 10, "faces in the photos: \(whole.stdoutLines.count)")
            let files = Self.shards(4, of: photos, in: folder, options: ["--classify"])
            let run = Self.merge(["--output", folder + "/all.csv"] + files)
            #expect(run.status == 0, "\(run.stderr)")
            let merged = try String(contentsOfFile: folder + "/all.csv", encoding: .utf8)
            #expect(merged == whole.stdout)
        }
    }

    /// Expects `facekit merge --output <output> <files>` to be a refusal: exit status 1, `output`
    /// not written, and a line on standard error containing each of `messages`; and
    /// `facekit status <files>` to exit with 1 and the same lines. Returns the merge's run.
    @discardableResult
    static func expectRefused(
        _ files: [String], output: String, _ messages: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) -> TestSupport.Run {
        let run = merge(["--output", output] + files)
        #expect(run.status == 1, sourceLocation: sourceLocation)
        #expect(run.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: output), sourceLocation: sourceLocation)
        for message in messages {
            #expect(
                run.stderrLines.contains { $0.hasPrefix("facekit: ") && $0.contains(message) }, "\(run.stderr)",
                sourceLocation: sourceLocation)
        }
        #expect(run.stderrLines.last == "facekit: nothing merged", sourceLocation: sourceLocation)
        let status = StatusCommandTests.status(files)
        #expect(status.status == 1, sourceLocation: sourceLocation)
        #expect(status.stderrLines == Array(run.stderrLines.dropLast()), sourceLocation: sourceLocation)
        return run
    }

    @Test("a missing shard is named, and nothing is written")
    func missingShard() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let files = Self.shards(4, of: photos, in: folder)
            let output = folder + "/all.csv"
            let run = Self.expectRefused([files[0], files[1], files[3]], output: output, ["shard 3/4 is missing"])
            #expect(run.stderrLines.count == 2)
        }
    }

    @Test("a shard whose journal says it is incomplete is named with how far it got")
    func incompleteShard() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let files = Self.shards(2, of: photos, in: folder)
            // Shard 2 of 2 (three inputs) stopped after one, as a cancelled job leaves it.
            try FileManager.default.removeItem(atPath: files[1])
            try FileManager.default.removeItem(atPath: files[1] + ".journal")
            _ = try Fixture.analyze(["--shard", "2/2", "--output", files[1], photos], stopAfter: 1)
            #expect(try Fixture.listing(folder).contains("faces-2.csv.partial"))
            let output = folder + "/all.csv"
            // A glob of the outputs does not see an unfinished shard; its partial file or journal names it.
            Self.expectRefused([files[0]], output: output, ["shard 2/2 is missing"])
            Self.expectRefused(
                [files[0], files[1] + ".partial"], output: output,
                ["shard 2/2 (\(folder)/faces-2.csv) is incomplete: 1 of 3 files done; run it again with --resume"])
        }
    }

    @Test("a damaged line in a shard's journal is named by file and line; a torn last line is not damage")
    func damagedJournalLine() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let files = Self.shards(2, of: photos, in: folder)
            let journal = files[1] + ".journal"
            let good = try Fixture.read(journal)
            let output = folder + "/all.csv"
            // Killed while writing a line: the complete lines before it still say complete.
            try (good + Data(#"{"bytes":"#.utf8)).write(to: URL(fileURLWithPath: journal))
            #expect(Self.merge(["--output", output] + files).status == 0)
            try FileManager.default.removeItem(atPath: output)
            var lines = String(decoding: good, as: UTF8.self).split(separator: "\n").map(String.init)
            lines[1] = "{}"
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: journal))
            Self.expectRefused(files, output: output, ["\(journal): line 2 is damaged (not a checkpoint)"])
        }
    }

    @Test("a shard whose partial file is still there is incomplete, even when its journal is complete")
    func partialStillThere() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let files = Self.shards(2, of: photos, in: folder)
            try FileManager.default.copyItem(atPath: files[0], toPath: files[0] + ".partial")
            let output = folder + "/all.csv"
            Self.expectRefused(
                files, output: output,
                ["shard 1/2 (\(files[0])) is incomplete: \(files[0]).partial is still there"])
        }
    }

    @Test("a shard being written by a running facekit is named")
    func runningShard() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let files = Self.shards(2, of: photos, in: folder)
            // What a running analyze holds: the journal's exclusive lock.
            let writer = try ResumableFileOutput(path: files[1], keepsJournal: true)
            defer { writer.close() }
            let output = folder + "/all.csv"
            Self.expectRefused(
                files, output: output,
                ["shard 2/2 (\(files[1])) is still being written: \(files[1]).journal is locked by a running facekit"])
        }
    }

    @Test("one shard given under two spellings of its path (./, //, a link) is one shard, not two")
    func oneShardTwoSpellings() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let whole = Fixture.analyze([photos])
            let files = Self.shards(2, of: photos, in: folder)
            try FileManager.default.createSymbolicLink(atPath: folder + "/link.csv", withDestinationPath: files[1])
            let respelt = files[0].replacingOccurrences(of: "/faces-1", with: "/./faces-1")
            let output = folder + "/all.csv"
            let run = Self.merge(["--output", output, files[0], respelt, folder + "//faces-2.csv", folder + "/link.csv", files[1]])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try String(contentsOfFile: output, encoding: .utf8) == whole.stdout)
        }
    }

    @Test("two outputs of the same shard are both named")
    func duplicateShard() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let files = Self.shards(2, of: photos, in: folder)
            let again = Self.shards(2, of: photos, in: folder, name: "again")
            let output = folder + "/all.csv"
            Self.expectRefused(
                files + [again[1]], output: output,
                ["shard 2/2 is given twice: \(files[1]) and \(again[1])"])
        }
    }

    @Test("shards made with other options are refused, naming the file and the options")
    func otherOptions() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let files = Self.shards(2, of: photos, in: folder, options: ["--landmarks"])
            let other = Self.shards(2, of: photos, in: folder, name: "other", options: ["--min-face-size", "0.2"])
            let output = folder + "/all.csv"
            Self.expectRefused(
                [files[0], other[1]], output: output,
                [
                    "\(other[1]): made with other options than \(files[0]) "
                        + "(it: no --landmarks, --min-face-size 0.2; \(files[0]): --landmarks, --min-face-size 0.1)"
                ])
            // Shards of another split of the same collection.
            let three = Self.shards(3, of: photos, in: folder, name: "three", options: ["--landmarks"])
            Self.expectRefused(
                [files[0], three[1]], output: output,
                ["\(three[1]) is shard 2/3, but \(files[0]) is shard 1/2"])
        }
    }

    @Test("CSV and JSON Lines shards are refused as mixed formats")
    func mixedFormats() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let csv = Self.shards(2, of: photos, in: folder)
            let jsonl = Self.shards(2, of: photos, in: folder, options: ["--format", "jsonl"])
            let output = folder + "/all.csv"
            Self.expectRefused(
                [csv[0], jsonl[1]], output: output,
                ["mixed formats: \(csv[0]) is CSV, \(jsonl[1]) is JSON Lines"])
        }
    }

    @Test("an output without a journal, a shard cut from another collection, and a changed file are refused")
    func uncheckable() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let files = Self.shards(2, of: photos, in: folder)
            let output = folder + "/all.csv"
            // Without --shard the journal says so; written to standard output, nothing says what it is.
            let plain = folder + "/plain.csv"
            _ = Fixture.analyze(["--output", plain, photos])
            Self.expectRefused(
                [files[0], plain], output: output,
                ["\(plain): made without --shard, so it is not part of a sharded output"])
            let redirected = folder + "/redirected.csv"
            try Fixture.analyze([photos]).stdout.write(toFile: redirected, atomically: false, encoding: .utf8)
            Self.expectRefused(
                [files[0], redirected], output: output,
                ["\(redirected): no \(redirected).journal, so it cannot be checked"])
            Self.expectRefused(
                [files[0], folder + "/nothing.csv"], output: output,
                ["\(folder)/nothing.csv: no such file, and no \(folder)/nothing.csv.journal"])
            // The collection grew between the shards.
            try TestSupport.makeFile(photos, "c.png", contents: Fixture.read(photos + "/a.png"))
            let grown = Self.shards(2, of: photos, in: folder, name: "grown")
            Self.expectRefused(
                [files[0], grown[1]], output: output,
                ["\(grown[1]): cut from a collection of 6 files, \(files[0]) from 5"])
            // A complete shard's file edited afterwards.
            try Data("source\n".utf8).write(to: URL(fileURLWithPath: files[1]))
            Self.expectRefused(
                files, output: output,
                ["\(files[1]): 7 bytes, but \(files[1]).journal says shard 2/2 (\(files[1])) completed with"])
        }
    }

    @Test("a named pipe, a link to a device or a folder given as a shard is named for what it is, not 'no such file'")
    func specialFiles() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let files = Self.shards(1, of: photos, in: folder)
            let pipe = folder + "/pipe.csv"
            try #require(mkfifo(pipe, 0o644) == 0)
            let device = folder + "/device.csv"
            try FileManager.default.createSymbolicLink(atPath: device, withDestinationPath: "/dev/null")
            let subfolder = folder + "/folder.csv"
            try FileManager.default.createDirectory(atPath: subfolder, withIntermediateDirectories: false)
            let run = Self.expectRefused(
                [files[0], pipe, device, subfolder], output: folder + "/all.csv",
                [
                    "\(pipe): not a regular file (a named pipe)", "\(device): not a regular file (a character device)",
                    "\(subfolder): is a folder",
                ])
            #expect(!run.stderr.contains("no such file"), "\(run.stderr)")
            // A complete shard whose table was replaced by a pipe.
            try FileManager.default.removeItem(atPath: files[0])
            try #require(mkfifo(files[0], 0o644) == 0)
            Self.expectRefused(
                files, output: folder + "/all.csv",
                ["\(files[0]): not a regular file (a named pipe), though \(files[0]).journal says shard 1/1"])
        }
    }

    @Test("a shard's journal that is a symbolic link (planted: no run makes one) is not read, by merge or status")
    func journalLink() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let files = Self.shards(2, of: photos, in: folder)
            // Shard 2's journal made a link to a copy of it kept elsewhere.
            let elsewhere = folder + "/elsewhere.journal"
            try FileManager.default.moveItem(atPath: files[1] + ".journal", toPath: elsewhere)
            try FileManager.default.createSymbolicLink(atPath: files[1] + ".journal", withDestinationPath: elsewhere)
            let run = Self.expectRefused(
                files, output: folder + "/all.csv",
                [
                    "\(files[1]).journal: a symbolic link, which no facekit run makes: it is not read",
                    "shard 2/2 is missing",
                ])
            #expect(run.stderrLines.count == 3, "\(run.stderr)")
        }
    }

    @Test("--output naming one of the shards is a usage error, and no file is a usage error")
    func usageErrors() {
        let run = Self.merge(["--output", "faces-1.csv", "faces-1.csv.journal", "faces-2.csv"])
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("Error: '--output faces-1.csv' is one of the shards to merge"), "\(run.stderr)")
        #expect(Self.merge([]).status == 64)
    }

    @Test("a complete shard run again with --resume is left alone; with other options it is a usage error")
    func completeShardResumed() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let files = Self.shards(2, of: photos, in: folder)
            let written = try Fixture.read(files[1])
            let journal = try Fixture.read(files[1] + ".journal")
            let again = Fixture.analyze(["--shard", "2/2", "--resume", "--output", files[1], photos])
            #expect(again.status == 0)
            #expect(again.stderr.isEmpty)
            #expect(try Fixture.read(files[1]) == written && Fixture.read(files[1] + ".journal") == journal)
            // A complete output from other options is not complete for this run: the journal tells.
            let other = Fixture.analyze(["--landmarks", "--shard", "2/2", "--resume", "--output", files[1], photos])
            #expect(other.status == 64)
            #expect(
                other.stderr.hasPrefix(
                    "Error: --resume: \(files[1]) was made with no --landmarks; this run asks --landmarks; "
                        + "use another --output or drop --resume"), "\(other.stderr)")
        }
    }
}
