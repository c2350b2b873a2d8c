import Foundation
import Testing

@testable import FaceKitCLI

@Suite("ResumableFileOutput")
struct ResumableFileOutputTests {
    static func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test("rows go to FILE.partial with checkpoints in FILE.journal, and commit renames it over FILE")
    func startCheckpointCommit() throws {
        try TestSupport.withTemporaryFolder { folder in
            let path = folder + "/faces.csv"
            try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
            let file = try ResumableFileOutput(path: path)
            try file.start(journalHeader: "header")
            file.write("row 1\n")
            try file.checkpoint("one")
            file.write("row 2\n")
            #expect(file.bytesWritten == 12)
            #expect(try Self.read(path + ".partial") == "row 1\n", "row 2 is still buffered")
            #expect(try Self.read(path + ".journal") == "header\none\n")
            #expect(try Self.read(path) == "old\n")
            try file.checkpoint("two")
            try file.commit()
            #expect(try Self.read(path) == "row 1\nrow 2\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["faces.csv"])
        }
    }

    @Test("an output that keeps its journal (a shard's) has it after the commit, whole")
    func keptJournal() throws {
        try TestSupport.withTemporaryFolder { folder in
            let path = folder + "/faces-2.csv"
            let file = try ResumableFileOutput(path: path, keepsJournal: true)
            try file.start(journalHeader: "header")
            file.write("row 1\n")
            try file.checkpoint("complete")
            try file.commit()
            #expect(try Self.read(path) == "row 1\n")
            #expect(try Self.read(path + ".journal") == "header\ncomplete\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["faces-2.csv", "faces-2.csv.journal"])
            // Opened again and closed without a start, as a resume that finds it complete does.
            try ResumableFileOutput(path: path, keepsJournal: true).close()
            #expect(try Self.read(path + ".journal") == "header\ncomplete\n")
        }
    }

    @Test("closing leaves both files; resuming cuts the partial file and the journal to a checkpoint")
    func closeAndResume() throws {
        try TestSupport.withTemporaryFolder { folder in
            let path = folder + "/faces.csv"
            do {
                let file = try ResumableFileOutput(path: path)
                try file.start(journalHeader: "header")
                file.write("row 1\n")
                try file.checkpoint("one")
                file.write("row 2, never committed\n")
                file.close()
            }
            // A crash in the middle of the next journal line.
            let journal = try FileHandle(forWritingTo: URL(fileURLWithPath: path + ".journal"))
            try journal.seekToEnd()
            try journal.write(contentsOf: Data("tw".utf8))
            try journal.close()

            let file = try ResumableFileOutput(path: path)
            let lines = try file.journalLines()
            #expect(lines.map(\.text) == ["header", "one"])
            #expect(lines.map(\.end) == [7, 11])
            #expect(file.partialSize == 29)
            try file.resume(atByte: 6, journalLength: lines[1].end)
            #expect(file.bytesWritten == 6)
            file.write("row 2\n")
            try file.checkpoint("two")
            #expect(try Self.read(path + ".journal") == "header\none\ntwo\n")
            try file.commit()
            #expect(try Self.read(path) == "row 1\nrow 2\n")
        }
    }

    @Test("a second writer of the same file is refused while the first runs")
    func lock() throws {
        try TestSupport.withTemporaryFolder { folder in
            let path = folder + "/faces.csv"
            let first = try ResumableFileOutput(path: path)
            let error = #expect(throws: OutputError.self) { try ResumableFileOutput(path: path) }
            #expect(
                error?.description
                    == "\(path): cannot write output: another run is writing it (\(path).journal is locked)")
            first.close()
            _ = try ResumableFileOutput(path: path)
        }
    }

    /// As when another thread starts a child between the fork and the exec: the child holds the
    /// journal's lock, through its copy of the descriptor, a moment after the run closed it.
    @Test("a lock on the journal released within a moment is waited for, not taken for another run")
    func lockReleasedSoon() throws {
        try TestSupport.withTemporaryFolder { folder in
            let path = folder + "/faces.csv"
            let holder = open(path + ".journal", O_RDWR | O_CREAT, 0o644)
            try #require(holder >= 0 && flock(holder, LOCK_EX | LOCK_NB) == 0)
            let released = DispatchSemaphore(value: 0)
            // A thread of its own: the shared queues may be busy with the tests beside this one.
            Thread {
                usleep(100_000)
                close(holder)
                released.signal()
            }.start()
            let file = try ResumableFileOutput(path: path)
            released.wait()
            file.close()
        }
    }

    @Test("an output that was never started leaves nothing behind, and a folder is refused")
    func nothingLeft() throws {
        try TestSupport.withTemporaryFolder { folder in
            do {
                let file = try ResumableFileOutput(path: folder + "/faces.csv")
                #expect(try file.journalLines().isEmpty)
                #expect(file.partialSize == nil && !file.outputExists)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
            #expect(throws: OutputError("\(folder): cannot write output: it is a folder")) {
                try ResumableFileOutput(path: folder)
            }
        }
    }
}
