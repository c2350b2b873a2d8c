import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// `facekit group`'s output folder reused, inside its inputs, interrupted, and JSON Lines that
/// mix a photo's lines with and without a frame (issues 54 and 55).
@Suite("group: its output folder, reruns and interruptions")
struct GroupOutputFolderTests {
    /// A line of `analyze --descriptors --format jsonl` for the astronaut's face in `source`,
    /// with a descriptor of its own for each `person` (0.71 apart, beyond --threshold).
    static func line(source: String, frame: Int? = nil, person: Int = 0) -> String {
        var descriptor = [Double](repeating: 0, count: 128)
        descriptor[person % 128] = 0.5
        let frameKey = frame.map { "\"frame\":\($0)," } ?? ""
        return "{\"source\":\"\(source)\",\(frameKey)\"face\":0,"
            + "\"box\":{\"x\":181.08,\"y\":65.27,\"width\":89.39,\"height\":110.72},\"quality\":0.8,"
            + "\"descriptor\":[\(descriptor.map { String($0) }.joined(separator: ","))]}\n"
    }

    /// The names in `folder`, sorted; empty when it is not there.
    static func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    static func rows(_ table: String) throws -> Int {
        try CSVTable(text: String(contentsOfFile: table, encoding: .utf8)).rows.count
    }

    @Test(
        "JSON Lines giving one photo a frame on one line and none on another: crops without a trap",
        .enabled(if: TestSupport.executable != nil, "the facekit executable was not found next to the test bundle"))
    func photoLinesWithAndWithoutFrame() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photo = try TestSupport.makeFile(folder, "a.png", contents: TestSupport.astronautData())
            let lines = folder + "/faces.jsonl"
            // The line with a frame first: its source was then cropped as a video, frame by frame.
            try (Self.line(source: photo, frame: 0, person: 1) + Self.line(source: photo))
                .write(toFile: lines, atomically: true, encoding: .utf8)
            let run = try TestSupport.runExecutable(["group", "--all-crops", "--output", folder + "/out", lines], killedAfter: 300)
            #expect(run.status == 0 || run.status == 1, "ended by a signal? exit \(run.status): \(run.stderr)")
            #expect(try Self.rows(folder + "/out/faces.csv") == 2)
            #expect(Self.names(folder + "/out/crops").contains("face-1.jpg"), "the photo's line has its crop")
        }
    }

    @Test("A folder of group's crops inside an input folder is not walked for photos")
    func cropsNotInputs() throws {
        try TestSupport.withTemporaryFolder { folder in
            try TestSupport.makeFile(folder, "photos/a.png", contents: TestSupport.astronautData())
            try TestSupport.makeFile(folder, "photos/people/crops/person-0.jpg", contents: TestSupport.astronautData())
            try TestSupport.makeFile(folder, "photos/people/b.png", contents: TestSupport.astronautData())
            let inputs = GroupInput.expand([folder + "/photos"], skipping: folder + "/photos/people/crops")
            #expect(inputs.map { if case .photo(let entry) = $0 { entry.path } else { "" } } == [
                folder + "/photos/a.png", folder + "/photos/people/b.png",
            ])
            // Named on the command line, a crop is an input like any photo.
            let named = GroupInput.expand([folder + "/photos/people/crops/person-0.jpg"], skipping: folder + "/photos/people/crops")
            #expect(named.count == 1)
        }
    }

    @Test("group --crops --output inside the folder it groups finds the same faces on every rerun", .needsModels)
    func outputInsideInput() throws {
        try TestSupport.withTemporaryFolder { folder in
            try TestSupport.makeFile(folder, "photos/a.png", contents: TestSupport.astronautData())
            try TestSupport.makeFile(folder, "photos/b.png", contents: TestSupport.astronautData())
            for _ in 0..<3 {
                let run = TestSupport.run([
                    "group", "--model-dir", TestSupport.modelDirectory ?? "/nonexistent", "--crops", "--output",
                    folder + "/photos/people", folder + "/photos",
                ])
                #expect(run.status == 0, "\(run.stderr)")
                #expect(try Self.rows(folder + "/photos/people/faces.csv") == 2, "the two photos' faces, not the crops'")
            }
        }
    }

    @Test("A rerun into a reused folder leaves only its own crops; the user's files there stay")
    func staleCrops() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photo = try TestSupport.makeFile(folder, "a.png", contents: TestSupport.astronautData())
            let three = folder + "/three.jsonl", one = folder + "/one.jsonl"
            try (0..<3).map { Self.line(source: photo, person: $0) }.joined().write(toFile: three, atomically: true, encoding: .utf8)
            try Self.line(source: photo).write(toFile: one, atomically: true, encoding: .utf8)
            let out = folder + "/out", crops = folder + "/out/crops"
            #expect(TestSupport.run(["group", "--all-crops", "--output", out, three]).status == 0)
            #expect(Self.names(crops) == ["face-0.jpg", "face-1.jpg", "face-2.jpg", "person-0.jpg", "person-1.jpg", "person-2.jpg"])
            try TestSupport.makeFile(crops, "notes.txt", contents: Data("mine".utf8))
            try TestSupport.makeFile(crops, "person-best.jpg", contents: TestSupport.astronautData())
            let mine = ["notes.txt", "person-best.jpg"]
            #expect(TestSupport.run(["group", "--crops", "--output", out, one]).status == 0)
            #expect(Self.names(crops) == ["notes.txt", "person-0.jpg", "person-best.jpg"])
            #expect(TestSupport.run(["group", "--output", out, one]).status == 0)
            #expect(Self.names(crops) == mine, "without --crops, no crop of an earlier run is left")
            for name in mine { try FileManager.default.removeItem(atPath: crops + "/" + name) }
            #expect(TestSupport.run(["group", "--output", out, one]).status == 0)
            #expect(!FileManager.default.fileExists(atPath: crops), "an emptied crops/ is removed")
            #expect(Self.names(out) == ["faces.csv", "people.csv"])
        }
    }

    /// Starts the built executable with `arguments`, waits until `ready` holds (at most a minute),
    /// sends SIGINT, and returns its standard error and whether it was still running when signalled.
    static func interrupted(_ arguments: [String], when ready: () -> Bool) throws -> (stderr: String, status: Int32, running: Bool) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(TestSupport.executable))
        process.arguments = arguments
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try TestSupport.runWithSignalsUnblocked(process)
        let deadline = ContinuousClock.now + .seconds(60)
        while !ready(), process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        // The announcement is made just after the folder: a moment for it.
        usleep(200_000)
        let running = process.isRunning
        kill(process.processIdentifier, SIGINT)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (text, process.terminationStatus, running)
    }

    @Test(
        "Ctrl-C while photos are analysed says nothing was written and a rerun starts over", .needsModels,
        .enabled(if: TestSupport.executable != nil, "the facekit executable was not found next to the test bundle"))
    func interruptedReading() throws {
        try TestSupport.withTemporaryFolder { folder in
            try TestSupport.makeFile(folder, "photos/a.png", contents: TestSupport.astronautData())
            for index in 0..<200 { try FileManager.default.linkItem(atPath: folder + "/photos/a.png", toPath: folder + "/photos/\(index).png") }
            let out = folder + "/out"
            let run = try Self.interrupted(
                ["group", "--model-dir", try #require(TestSupport.modelDirectory), "--jobs", "1", "--output", out, folder + "/photos"]
            ) { FileManager.default.fileExists(atPath: out) }
            try #require(run.running, "still analysing when signalled: \(run.stderr)")
            #expect(run.status == SIGINT)
            #expect(run.stderr.contains("facekit: interrupted; group wrote nothing: \(out) holds what an earlier run left"), "\(run.stderr)")
            #expect(run.stderr.contains("a rerun starts over"))
            #expect(Self.names(out) == [], "nothing written, no temporary file left")
        }
    }

    @Test(
        "Ctrl-C while crops are written says the tables are complete and the crops are not",
        .enabled(if: TestSupport.executable != nil, "the facekit executable was not found next to the test bundle"))
    func interruptedCropping() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photo = try TestSupport.makeFile(folder, "photos/a.png", contents: TestSupport.astronautData())
            var lines = ""
            for index in 0..<3000 {
                let copy = folder + "/photos/\(index).png"
                try FileManager.default.linkItem(atPath: photo, toPath: copy)
                lines += Self.line(source: copy)
            }
            try lines.write(toFile: folder + "/faces.jsonl", atomically: true, encoding: .utf8)
            let out = folder + "/out"
            let run = try Self.interrupted(["group", "--all-crops", "--output", out, folder + "/faces.jsonl"]) {
                Self.names(out + "/crops").count > 1
            }
            try #require(run.running, "still cropping when signalled: \(run.stderr)")
            #expect(run.status == SIGINT)
            #expect(run.stderr.contains("facekit: interrupted; faces.csv and people.csv in \(out) are complete, but crops/ lacks"), "\(run.stderr)")
            #expect(try Self.rows(out + "/faces.csv") == 3000)
            #expect(Self.names(out + "/crops").allSatisfy { !$0.hasPrefix(".") }, "no temporary picture left")
        }
    }
}
