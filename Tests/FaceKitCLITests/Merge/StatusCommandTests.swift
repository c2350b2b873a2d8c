import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// `facekit status` over the outputs of `analyze --shard K/N --output`.
@Suite("status command", .needsModels)
struct StatusCommandTests {
    typealias Fixture = PhotoCollectionFixture

    static func status(_ arguments: [String]) -> TestSupport.Run { TestSupport.run(["status"] + arguments) }

    /// The table's cells, one array per line.
    static func cells(_ run: TestSupport.Run) -> [[String]] {
        run.stdoutLines.map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
    }

    @Test("complete shards: one line each with the files done and failed, and exit status 0")
    func complete() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let files = MergeCommandTests.shards(2, of: photos, in: folder)
            let run = Self.status(files.reversed())
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.isEmpty)
            #expect(
                Self.cells(run) == [
                    ["shard", "done", "failed", "state", "file"],
                    ["1/2", "2", "of", "2", "files", "0", "complete", files[0]],
                    // broken.jpg is the last of the five: shard 2 has it.
                    ["2/2", "3", "of", "3", "files", "1", "complete", files[1]],
                ])
        }
    }

    @Test("a stopped shard, a running one and a missing one are shown, with what merge would say")
    func unfinished() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let files = (1...4).map { "\(folder)/faces-\($0).csv" }
            // Five inputs in four shards of 1, 1, 1 and 2: shard 1 complete, shard 2 never started,
            // shard 3 running (its one input done), shard 4 stopped after one of its two.
            _ = Fixture.analyze(["--shard", "1/4", "--output", files[0], photos])
            _ = try Fixture.analyze(["--shard", "3/4", "--output", files[2], photos], stopAfter: 1)
            let writer = try ResumableFileOutput(path: files[2])
            defer { writer.close() }
            _ = try Fixture.analyze(["--shard", "4/4", "--output", files[3], photos], stopAfter: 1)
            // As a shell expands results/faces-*: outputs, journals and partial files.
            let given = try Fixture.listing(folder).filter { $0.hasPrefix("faces-") }.map { folder + "/" + $0 }
            let run = Self.status(given)
            #expect(run.status == 1)
            #expect(
                Self.cells(run) == [
                    ["shard", "done", "failed", "state", "file"],
                    ["1/4", "1", "of", "1", "files", "0", "complete", files[0]],
                    ["2/4", "-", "-", "missing", "-"],
                    ["3/4", "1", "of", "1", "files", "0", "running", files[2]],
                    ["4/4", "1", "of", "2", "files", "0", "stopped", files[3]],
                ])
            #expect(
                run.stderrLines == [
                    "facekit: shard 3/4 (\(files[2])) is still being written: \(files[2]).journal is locked by a running facekit",
                    "facekit: shard 4/4 (\(files[3])) is incomplete: 1 of 2 files done; run it again with --resume",
                    "facekit: shard 2/4 is missing: none of the files given is its output "
                        + "(name an unfinished shard by its .journal or .partial file)",
                ])
        }
    }

    @Test("a file that is not a shard's output is shown as unusable, with the reason")
    func unusable() throws {
        try TestSupport.withTemporaryFolder { folder in
            let other = try TestSupport.makeFile(folder, "other.csv", contents: Data("source\n".utf8))
            let run = Self.status([other])
            #expect(run.status == 1)
            #expect(Self.cells(run).last == ["?", "-", "-", "unusable", other])
            #expect(run.stderrLines.count == 1)
            #expect(run.stderr.hasPrefix("facekit: \(other): no \(other).journal, so it cannot be checked"))
        }
    }
}
