import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

#if canImport(Glibc)
    import Glibc
#endif

/// A symbolic link planted at a name FaceKit writes (`FILE.partial`, `FILE.journal`, `FILE`
/// itself, a `--summary`), pointing at a file outside the output's folder: FaceKit never writes
/// through it, the file it points to keeps its content, and the name ends up FaceKit's own
/// regular file.
@Suite("links planted where FaceKit writes its files", .needsModels)
struct PlantedLinkTests {
    /// `root/out/<name>`, a symbolic link to `root/outside.txt`, which holds "keep\n". Returns
    /// the folder `root/out` and the file outside it.
    static func plant(_ name: String, in root: String) throws -> (out: String, outside: String) {
        let out = root + "/out"
        let outside = root + "/outside.txt"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try "keep\n".write(toFile: outside, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: out + "/" + name, withDestinationPath: outside)
        return (out, outside)
    }

    @Test(
        "analyze --output never writes through a link planted at FILE.partial, FILE.journal or FILE",
        arguments: ["faces.csv.partial", "faces.csv.journal", "faces.csv"])
    func analyzeOutput(planted: String) throws {
        try TestSupport.withTemporaryFolder { root in
            let (out, outside) = try Self.plant(planted, in: root)
            let output = out + "/faces.csv"
            let run = TestSupport.analyze(["--output", output, TestSupport.astronaut])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try String(contentsOfFile: outside, encoding: .utf8) == "keep\n", "written through \(planted)")
            #expect(SpecialFileTests.fileType(output) == S_IFREG, "\(output) is not a regular file")
            #expect(try String(contentsOfFile: output, encoding: .utf8) == TestSupport.analyze([TestSupport.astronaut]).stdout)
            #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["faces.csv", "faces.csv.journal"])
        }
    }

    @Test("a shard's kept journal replaces a link planted at its name, and its target keeps its content")
    func shardJournal() throws {
        try TestSupport.withTemporaryFolder { root in
            let (out, outside) = try Self.plant("faces.csv.journal", in: root)
            let output = out + "/faces.csv"
            let run = TestSupport.analyze(["--shard", "1/1", "--output", output, TestSupport.astronaut])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try String(contentsOfFile: outside, encoding: .utf8) == "keep\n")
            #expect(SpecialFileTests.fileType(output + ".journal") == S_IFREG)
            #expect(SpecialFileTests.fileType(output) == S_IFREG)
        }
    }

    @Test("track --summary never writes through a link planted at its name")
    func summary() throws {
        try TestSupport.withTemporaryFolder { root in
            let (out, outside) = try Self.plant("summary.csv", in: root)
            let summary = out + "/summary.csv"
            let run = TrackCommandTests.track(["--summary", summary, TrackCommandTests.crossing])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try String(contentsOfFile: outside, encoding: .utf8) == "keep\n")
            #expect(SpecialFileTests.fileType(summary) == S_IFREG)
            #expect(try String(contentsOfFile: summary, encoding: .utf8).hasPrefix("source,tracking_id,"))
        }
    }
}
