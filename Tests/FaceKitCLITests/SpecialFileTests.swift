import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

#if canImport(Glibc)
    import Glibc
#endif

/// Outputs that are not regular files (devices, named pipes, `/dev/stdout`), named pipes where
/// FaceKit reads or continues a file on its own, and a full disk: the built executable is run, so
/// that a device is seen as a shell user sees it, and every run is killed if it outlives a limit
/// far beyond its length, so that a run blocked in `open` fails its test instead of hanging it.
@Suite("special files and full disks", .needsModels)
struct SpecialFileTests {
    static let models = ["--model-dir", TestSupport.modelDirectory ?? "/nonexistent"]
    static let crossing = TrackCommandTests.crossing
    /// Seconds after which a run counts as hung: each of these takes a few.
    static let limit = 300

    static func facekit(_ arguments: [String]) throws -> TestSupport.Run {
        try TestSupport.runExecutable(arguments, killedAfter: limit)
    }

    /// The type bits of what is at `path` itself (`lstat`): `S_IFCHR`, `S_IFIFO`, `S_IFLNK`...
    static func fileType(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    static func makePipe(_ path: String) throws {
        try #require(mkfifo(path, 0o644) == 0, "mkfifo \(path)")
    }

    @Test("--output /dev/full fails with exit 1 and a message naming it, and /dev/full stays a device")
    func fullDevice() throws {
        let run = try Self.facekit(["analyze"] + Self.models + ["--output", "/dev/full", TestSupport.astronaut])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("/dev/full: cannot write output: No space left on device"), "\(run.stderr)")
        #expect(Self.fileType("/dev/full") == S_IFCHR)
    }

    @Test("analyze --output, track --output and --summary /dev/null succeed, and /dev/null stays a device")
    func nullDevice() throws {
        let analyze = try Self.facekit(["analyze"] + Self.models + ["--output", "/dev/null", TestSupport.astronaut])
        #expect(analyze.status == 0, "\(analyze.stderr)")
        let track = try Self.facekit(
            ["track"] + Self.models + ["--output", "/dev/null", "--summary", "/dev/null", Self.crossing])
        #expect(track.status == 0, "\(track.stderr)")
        #expect(Self.fileType("/dev/null") == S_IFCHR)
    }

    @Test("a named pipe given as --output gets the table its reader reads, and stays a pipe")
    func pipeOutput() throws {
        try TestSupport.withTemporaryFolder { folder in
            let path = folder + "/faces.csv"
            try Self.makePipe(path)
            // The reader holds the pipe from the start, and a write end of the test's own keeps it
            // from seeing an end before the run has written: it sees one once the test lets go.
            let reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            try #require(reader >= 0)
            let keeper = open(path, O_WRONLY | O_CLOEXEC)
            try #require(keeper >= 0)
            _ = fcntl(reader, F_SETFL, 0)
            let received = PipeReader(descriptor: reader)
            let run = try Self.facekit(["analyze"] + Self.models + ["--output", path, TestSupport.astronaut])
            close(keeper)
            let text = received.wait()
            #expect(run.status == 0, "\(run.stderr)")
            #expect(text == TestSupport.analyze([TestSupport.astronaut]).stdout)
            #expect(Self.fileType(path) == S_IFIFO)
        }
    }

    @Test("--summary /dev/stdout writes where standard output is redirected, after what is there, and /dev/stdout stays a link")
    func summaryToStandardOutput() throws {
        try TestSupport.withTemporaryFolder { folder in
            let summaryFile = folder + "/summary.csv"
            let plain = TrackCommandTests.track(["--summary", summaryFile, Self.crossing])
            try #require(plain.status == 0, "\(plain.stderr)")
            let summary = try String(contentsOfFile: summaryFile, encoding: .utf8)

            // Appended to a file that already holds a line.
            let log = folder + "/log.txt"
            try "earlier line\n".write(toFile: log, atomically: false, encoding: .utf8)
            let appended = try TestSupport.runExecutableThroughShell(
                #"exec "$0" track --model-dir "$1" --output "$2" --summary /dev/stdout "$3" >> "$4""#,
                [Self.models[1], folder + "/tracks.csv", Self.crossing, log], killedAfter: Self.limit)
            #expect(appended.status == 0, "\(appended.stderr)")
            #expect(try String(contentsOfFile: log, encoding: .utf8) == "earlier line\n" + summary)

            // Truncated by the shell, the rows on standard output too: the summary follows them.
            let both = folder + "/both.txt"
            let shared = try TestSupport.runExecutableThroughShell(
                #"exec "$0" track --model-dir "$1" --summary /dev/stdout "$2" > "$3""#,
                [Self.models[1], Self.crossing, both], killedAfter: Self.limit)
            #expect(shared.status == 0, "\(shared.stderr)")
            #expect(try String(contentsOfFile: both, encoding: .utf8) == plain.stdout + summary)
            #expect(Self.fileType("/dev/stdout") == S_IFLNK)
        }
    }

    /// A command run next to a named pipe where it keeps its partial file or journal.
    struct PipeNeighbour: CustomTestStringConvertible, Sendable {
        var command: String
        /// Where the pipe is, in the run's folder.
        var pipe: String
        /// The arguments after the command, with `@` for the run's folder.
        var arguments: [String]
        var testDescription: String { "\(command) with \(pipe) a named pipe" }
    }

    static let neighbours: [PipeNeighbour] = [
        PipeNeighbour(command: "analyze", pipe: "o.csv.partial", arguments: ["--output", "@/o.csv", TestSupport.astronaut]),
        PipeNeighbour(
            command: "analyze", pipe: "s2.csv.journal",
            arguments: ["--shard", "2/2", "--output", "@/s2.csv", TestSupport.astronaut]),
        PipeNeighbour(command: "track", pipe: "o.csv.partial", arguments: ["--output", "@/o.csv", crossing]),
        PipeNeighbour(command: "track", pipe: "o.csv.journal", arguments: ["--output", "@/o.csv", crossing]),
        PipeNeighbour(command: "status", pipe: "s2.csv.journal", arguments: ["@/s2.csv"]),
        PipeNeighbour(command: "merge", pipe: "s2.csv.journal", arguments: ["--output", "@/all.csv", "@/s2.csv"]),
    ]

    @Test("a named pipe as FILE.partial or FILE.journal makes the run fail at once, naming it", arguments: neighbours)
    func pipeNeighbour(_ case: PipeNeighbour) throws {
        try TestSupport.withTemporaryFolder { folder in
            let pipe = folder + "/" + `case`.pipe
            try Self.makePipe(pipe)
            let arguments = `case`.arguments.map { $0.replacingOccurrences(of: "@", with: folder) }
            let models = ["analyze", "track"].contains(`case`.command) ? Self.models : []
            let run = try Self.facekit([`case`.command] + models + arguments)
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr.contains(pipe) && run.stderr.contains("not a regular file (a named pipe)"), "\(run.stderr)")
            #expect(Self.fileType(pipe) == S_IFIFO)
        }
    }

    @Test("a named pipe given to group as JSON Lines is reported by name, and the other input is grouped")
    func pipeToGroup() throws {
        try TestSupport.withTemporaryFolder { folder in
            let good = folder + "/good.jsonl"
            let lines = TestSupport.analyze(["--format", "jsonl", "--descriptors", TestSupport.astronaut])
            try #require(lines.status == 0, "\(lines.stderr)")
            try lines.stdout.write(toFile: good, atomically: false, encoding: .utf8)
            let pipe = folder + "/pipe.jsonl"
            try Self.makePipe(pipe)
            let run = try Self.facekit(["group"] + Self.models + ["--output", folder + "/out", pipe, good])
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr.contains("\(pipe): cannot read file: not a regular file (a named pipe)"), "\(run.stderr)")
            let faces = try String(contentsOfFile: folder + "/out/faces.csv", encoding: .utf8)
            #expect(faces.contains(TestSupport.astronaut), "\(faces)")
        }
    }

    @Test("--output a symbolic link, even to a file beside it, replaces the link and leaves the file alone")
    func linkedOutput() throws {
        try TestSupport.withTemporaryFolder { folder in
            let file = folder + "/real.csv"
            let link = folder + "/link.csv"
            try "old\n".write(toFile: file, atomically: false, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.csv")
            let run = try Self.facekit(["analyze"] + Self.models + ["--output", link, TestSupport.astronaut])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(Self.fileType(link) == S_IFREG)
            #expect(try String(contentsOfFile: link, encoding: .utf8) == TestSupport.analyze([TestSupport.astronaut]).stdout)
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "old\n")
        }
    }

    /// Whether this process may run a command in a mount namespace of its own (root, and a
    /// kernel and container that allow it), where a small tmpfs stands for a full disk.
    static let canMountPrivately: Bool = {
        (try? TestSupport.runProcess("/usr/bin/unshare", ["-m", "--propagation", "private", "/bin/true"]))?.status == 0
    }()

    /// Runs `commands` (sh, without single quotes: `$0` the executable, `$1` a tmpfs of `size`
    /// mounted on the new folder `disk`, `$2`... `arguments`) in a mount namespace of their own,
    /// the only place the tmpfs is seen: what they find on it they print.
    static func onSmallDisk(_ size: String, at disk: String, _ commands: String, _ arguments: [String]) throws
        -> TestSupport.Run
    {
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        let inner = "mount -t tmpfs -o size=\(size) tmpfs \"$1\" || exit 99\n" + commands
        return try TestSupport.runExecutableThroughShell(
            "exec /usr/bin/unshare -m --propagation private /bin/sh -c '\(inner)' \"$0\" \"$@\"", [disk] + arguments,
            killedAfter: limit)
    }

    @Test(
        "annotate on a disk too small for the video fails with exit 1 and leaves no video",
        .enabled(if: canMountPrivately, "needs root and unshare -m, for a small tmpfs"))
    func videoOnFullDisk() throws {
        try TestSupport.withTemporaryFolder { folder in
            // 100 KB: the annotated clip needs about 145 KB.
            let run = try Self.onSmallDisk(
                "100k", at: folder + "/disk",
                #"""
                "$0" annotate --model-dir "$2" --output "$1/out" "$3"; status=$?
                ls -A "$1/out"; exit $status
                """#, [Self.models[1], Self.crossing])
            #expect(run.status == 1, "\(run.stderr)")
            // The muxer's failed write, with the system's reason, in annotate's documented form.
            #expect(run.stderr.contains("not annotated: cannot write "), "\(run.stderr)")
            #expect(run.stderr.contains("out/crossing.mp4: No space left on device"), "\(run.stderr)")
            #expect(run.stdout.isEmpty, "left in the output folder: \(run.stdout)")
        }
    }

    @Test(
        "report on a disk too small for its pictures fails with exit 1 and leaves no truncated picture",
        .enabled(if: canMountPrivately, "needs root and unshare -m, for a small tmpfs"))
    func reportOnFullDisk() throws {
        try TestSupport.withTemporaryFolder { folder in
            let table = folder + "/tracks.csv"
            let tracked = TrackCommandTests.track(["--output", table, Self.crossing])
            try #require(tracked.status == 0, "\(tracked.stderr)")
            // 40 KB holds two of the clip's three pictures (about 13 KB each) and not the pages.
            // Each JPEG left is listed with its size and last two bytes, FF D9 when it is whole.
            let run = try Self.onSmallDisk(
                "40k", at: folder + "/disk",
                #"""
                "$0" report --output "$1/report" "$2"; status=$?
                for picture in "$1"/report/images/*.jpg; do
                    [ -e "$picture" ] && echo "$picture $(wc -c < "$picture") $(tail -c 2 "$picture" | od -An -tx1)"
                done
                exit $status
                """#, [table])
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr.contains("cannot write output: No space left on device"), "\(run.stderr)")
            for line in run.stdoutLines {
                let words = line.split(separator: " ")
                #expect(words.count == 4 && words[1] != "0" && words[2] == "ff" && words[3] == "d9", "truncated: \(line)")
            }
        }
    }
}

/// Reads a descriptor to its end on a thread of its own, so that a writer never waits on a full
/// pipe while the test waits on the writer.
private final class PipeReader: @unchecked Sendable {
    // @unchecked: `bytes` is written by the thread before `done` is signalled, and read after.
    private var bytes: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)

    init(descriptor: Int32) {
        Thread.detachNewThread { [self] in
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                bytes += chunk[..<count]
            }
            close(descriptor)
            done.signal()
        }
    }

    /// Everything read, once the last writer has closed the pipe.
    func wait() -> String {
        done.wait()
        return String(decoding: bytes, as: UTF8.self)
    }
}
