import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// `facekit analyze --shard K/N` and the merge recipe of docs/collections.md.
@Suite("analyze --shard")
struct ShardAnalyzeTests {
    typealias Fixture = PhotoCollectionFixture

    @Test("the shards' CSV files, merged as docs/collections.md says, are exactly the unsharded output", .needsModels)
    func csvShardsMerge() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let whole = Fixture.analyze(["--landmarks", photos])
            var shardFiles: [String] = []
            var errors: [String] = []
            for k in 1...3 {
                let file = folder + "/faces-\(k).csv"
                let run = Fixture.analyze(["--landmarks", "--shard", "\(k)/3", "--output", file, photos])
                shardFiles.append(file)
                errors += run.stderrLines
            }
            #expect(errors == whole.stderrLines)
            // The recipe: the first file whole, the others without their header line.
            let merged = try runShell("awk 'FNR > 1 || NR == 1' \(shardFiles.joined(separator: " "))")
            #expect(merged == whole.stdout)
            // Every shard has the header.
            for file in shardFiles {
                let header = CSVFaceWriter.line(CSVFaceWriter.header(columns: FaceRecordColumns(landmarks: true)))
                #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix(header))
            }
        }
    }

    @Test(
        "JSON Lines shards simply concatenate, and a shard with no inputs writes nothing but its header", .needsModels)
    func jsonlShardsAndEmptyShard() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let whole = Fixture.analyze(["--format", "jsonl", photos])
            let shards = (1...2).map { Fixture.analyze(["--format", "jsonl", "--shard", "\($0)/2", photos]) }
            #expect(shards.map(\.stdout).joined() == whole.stdout)
            // Five inputs in seven shards: shard 1 has none.
            let empty = Fixture.analyze(["--shard", "1/7", photos])
            #expect(empty.status == 0)
            #expect(empty.stdoutLines == [CSVFaceWriterTests.fixedHeader])
        }
    }

    @Test("a sharded run resumes within its shard", .needsModels)
    func shardResume() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Fixture.make(in: folder)
            let whole = Fixture.analyze(["--shard", "2/2", photos])
            let output = folder + "/faces-2.csv"
            _ = try Fixture.analyze(["--shard", "2/2", "--output", output, photos], stopAfter: 1)
            let resumed = Fixture.analyze(["--shard", "2/2", "--resume", "--output", output, photos])
            #expect(resumed.status == whole.status)
            #expect(try String(contentsOfFile: output, encoding: .utf8) == whole.stdout)
            // Another shard is another run.
            _ = try Fixture.analyze(["--shard", "2/2", "--output", output, photos], stopAfter: 1)
            let other = Fixture.analyze(["--shard", "1/2", "--resume", "--output", output, photos])
            #expect(other.status == 64)
            #expect(other.stderr.contains("interrupted run: --shard 2/2; this run: --shard 1/2"), "\(other.stderr)")
        }
    }

    @Test(
        "a malformed --shard is a usage error naming the option",
        arguments: ["0/4", "5/4", "2", "a/b", "2/0", "-1/4", ""])
    func badShard(value: String) {
        let run = Fixture.analyze(["--shard", value, TestSupport.astronaut])
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("Error: The value '\(value)' is invalid for '--shard <k/n>'"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    /// Runs `command` with /bin/sh and returns its standard output.
    func runShell(_ command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }
}
