import FaceKit
import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// `facekit analyze` run in process on real files with the real detector.
@Suite("analyze end to end", .enabled(if: TestSupport.modelsAvailable, TestSupport.modelsMissingMessage))
struct AnalyzeEndToEndTests {
    @Test("a good image gives the header and one row per face, exit status 0")
    func goodImage() throws {
        let run = TestSupport.analyze([TestSupport.astronaut])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let lines = run.stdoutLines
        #expect(lines.first == CSVFaceWriterTests.fixedHeader)
        #expect(lines.count >= 2)
        for line in lines.dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            #expect(cells.count == 26)
            #expect(cells[0] == TestSupport.astronaut[...])
            #expect(cells[1].isEmpty && cells[2].isEmpty && cells[5].isEmpty)
            #expect(cells[3] == "detected")
            #expect(Double(cells[10]).map { $0 >= FaceDetectorOptions.defaultMinDetectionScore && $0 <= 1 } == true)
            #expect(cells[11] == cells[10])  // a photo's confidence is its detection score
            #expect(cells[15].isEmpty && cells[16].isEmpty && cells[17].isEmpty)  // not classified
            #expect(cells[18...20].allSatisfy { $0 == "not_requested" })
            #expect(cells[22] == "512" && cells[23] == "512")  // the PNG's size
            #expect(cells[24].isEmpty && cells[25].isEmpty)  // no EXIF capture time, no failure
        }
        #expect(lines[1].split(separator: ",", omittingEmptySubsequences: false)[4] == "0")
    }

    @Test("the sample row README.md shows is the one scripts/run-sample prints")
    func readmeSample() throws {
        let readme = try String(contentsOf: TestData.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let shown = try #require(readme.split(separator: "\n").first { $0.hasPrefix("Tests/Fixtures/astronaut.png,") })
        let expected = shown.split(separator: ",", omittingEmptySubsequences: false).dropFirst().prefix { $0 != "..." }
        let run = TestSupport.analyze(["--landmarks", "--classify", TestSupport.astronaut])
        #expect(run.status == 0)
        let row = try #require(run.stdoutLines.dropFirst().first).split(separator: ",", omittingEmptySubsequences: false)
        #expect(Array(row.dropFirst().prefix(expected.count)) == Array(expected), "README shows \(shown)")
    }

    @Test("descriptors and every other column are the same bytes whatever --jobs is (each run its own process)")
    func sameBytesForAnyJobs() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try PhotoCollectionFixture.make(in: folder)
            let runs = try [1, 2, 3].map { jobs in
                try TestSupport.runExecutable([
                    "analyze", "--model-dir", TestSupport.modelDirectory ?? "/nonexistent", "--jobs", String(jobs),
                    "--descriptors", "--landmarks", "--classify", "--format", "jsonl", photos,
                ])
            }
            #expect(runs[0].stdoutLines.count == 5, "four faces and broken.jpg's failed line: \(runs[0].stderr)")
            #expect(runs[0].stdout.contains("\"descriptor\":["))
            #expect(runs[1].stdout == runs[0].stdout && runs[2].stdout == runs[0].stdout)
        }
    }

    /// Headers that promise a 9000 x 9000 image, followed by almost no data.
    static func truncatedHeaders() -> [(name: String, bytes: [UInt8])] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
        let side = 9000
        let bmp = Array("BM".utf8) + le32(54 + side * side * 3) + le32(0) + le32(54) + le32(40) + le32(side) + le32(side)
            + le16(1) + le16(24) + le32(0) + le32(side * side * 3) + le32(2835) + le32(2835) + le32(0) + le32(0)
        let ppm = Array("P6\n\(side) \(side)\n255\n".utf8)
        var tiff = Array("II".utf8) + le16(42) + le32(8) + le16(8)
        for (tag, type, value) in [
            (256, 4, side), (257, 4, side), (258, 3, 8), (259, 3, 1), (262, 3, 1), (273, 4, 200), (278, 4, side),
            (279, 4, side * side),
        ] {
            tiff += le16(tag) + le16(type) + le32(1) + (type == 3 ? le16(value) + le16(0) : le32(value))
        }
        tiff += le32(0)
        return [("big.bmp", bmp), ("big.ppm", ppm), ("big.tif", tiff)].map { ($0.0, $0.1 + [UInt8](repeating: 7, count: 1000)) }
    }

    @Test("a header that promises more than the file holds gets FaceKit's one line, not OpenCV's own")
    func truncatedHeadersSayOneThing() throws {
        try TestSupport.withTemporaryFolder { folder in
            let paths = try Self.truncatedHeaders().map { try TestSupport.makeFile(folder, $0.name, contents: Data($0.bytes)) }
            let run = try TestSupport.runExecutable(["analyze", "--model-dir", TestSupport.modelDirectory ?? "/nonexistent"] + paths)
            #expect(run.status == 1)
            #expect(!run.stderr.contains("imdecode_"), "\(run.stderr)")
            let lines = run.stderrLines
            #expect(lines.count == paths.count, "\(run.stderr)")
            for (line, path) in zip(lines, paths) {
                #expect(line.hasPrefix("facekit: ") && line.contains(path), "\(line)")
            }
        }
    }

    @Test("bad inputs get one stderr line each, good ones are still written, exit status 1")
    func badInputs() throws {
        try TestSupport.withTemporaryFolder { folder in
            let missing = folder + "/missing.jpg"
            let empty = try TestSupport.makeFile(folder, "empty.png")
            let text = try TestSupport.makeFile(folder, "x.jpg", contents: Data("this is not a JPEG\n".utf8))
            let full = try TestSupport.astronautData()
            let truncated = try TestSupport.makeFile(folder, "truncated.png", contents: full.prefix(full.count / 3))
            let run = TestSupport.analyze([missing, empty, TestSupport.astronaut, text, truncated])
            #expect(run.status == 1)
            let errors = run.stderrLines
            #expect(errors.count == 4, "\(errors)")
            for (line, path) in zip(errors, [missing, empty, text, truncated]) {
                #expect(line.hasPrefix("facekit: "), "\(line)")
                #expect(line.contains(path), "\(line)")
            }
            let rows = run.stdoutLines.dropFirst()
            let faces = rows.filter { $0.hasPrefix(TestSupport.astronaut + ",,,detected,") }
            #expect(!faces.isEmpty)
            // Each bad input has its row too, in input order, saying why it failed as stderr does.
            let failed = rows.filter { !$0.hasPrefix(TestSupport.astronaut + ",") }
            #expect(failed.count == 4, "\(rows)")
            for ((row, path), error) in zip(zip(failed, [missing, empty, text, truncated]), errors) {
                #expect(row.hasPrefix(path + ",,,failed,"), "\(row)")
                #expect(row.hasSuffix("," + error.dropFirst("facekit: \(path): ".count)), "\(row) / \(error)")
            }
            #expect(rows.count == faces.count + 4)
        }
    }

    @Test("a named pipe, given or found in a folder, gets one line naming it and is never opened")
    func namedPipes() throws {
        try TestSupport.withTemporaryFolder { folder in
            try TestSupport.makeFile(folder, "photos/a.png", contents: try TestSupport.astronautData())
            let inFolder = try NamedPipe(path: folder + "/photos/b.jpg")
            defer { inFolder.stop() }
            let given = try NamedPipe(path: folder + "/given.jpg")
            defer { given.stop() }
            let run = TestSupport.analyze([given.path, folder + "/photos"])
            #expect(run.status == 1)
            #expect(
                run.stderrLines == [
                    "facekit: \(given.path): cannot read file: not a regular file (a named pipe)",
                    "facekit: \(inFolder.path): cannot read file: not a regular file (a named pipe)",
                ])
            #expect(!given.wasOpened && !inFolder.wasOpened, "a pipe was opened")
            let rows = run.stdoutLines.dropFirst()
            let sources = Set(rows.filter { $0.contains(",detected,") }.map { String($0.prefix { $0 != "," }) })
            #expect(sources == [folder + "/photos/a.png"])
            let failed = Set(rows.filter { $0.contains(",,,failed,") }.map { String($0.prefix { $0 != "," }) })
            #expect(failed == [given.path, inFolder.path])
        }
    }

    @Test("a file whose name is not UTF-8 is found and analysed; CSV and JSON Lines write its byte as \\xE9")
    func nonUTF8Name() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photo = try TestSupport.astronautData()
            try TestSupport.makeFile(folder, nameBytes: TestSupport.latin1Name, contents: photo)
            let expected = folder + #"/caf\xE9.png"#
            let csv = TestSupport.analyze([folder])
            #expect(csv.status == 0, "\(csv.stderr)")
            let sources = Set(csv.stdoutLines.dropFirst().map { String($0.prefix { $0 != "," }) })
            #expect(sources == [expected])
            let jsonl = TestSupport.analyze(["--format", "jsonl", folder])
            #expect(jsonl.status == 0, "\(jsonl.stderr)")
            #expect(!jsonl.stdoutLines.isEmpty)
            for line in jsonl.stdoutLines {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                #expect(object["source"] as? String == expected)
            }
            // Named directly, as the argument bytes arrive in the process.
            let named = FilePathEncoding.string(fromPathBytes: Array(folder.utf8) + [0x2F] + TestSupport.latin1Name)
            #expect(TestSupport.analyze([named]).stdout == csv.stdout)
            let missing = TestSupport.analyze([named + "x"])
            #expect(missing.stderrLines == ["facekit: \(expected)x: cannot read file: No such file or directory"])
        }
    }

    @Test("photos below a path longer than PATH_MAX are not skipped silently: their folder is reported")
    func pathTooLong() throws {
        try TestSupport.withTemporaryFolder { folder in
            try TestSupport.makeFile(folder, "a.png", contents: try TestSupport.astronautData())
            let deep = try DeepFolderFixture(root: folder, contents: try TestSupport.astronautData())
            defer { deep.remove() }
            let run = TestSupport.analyze([folder])
            #expect(run.status == 1)
            #expect(run.stderrLines == ["facekit: \(deep.firstTooLong): cannot read folder: File name too long"])
            let rows = run.stdoutLines.dropFirst()
            let sources = Set(rows.filter { $0.contains(",,,detected,") }.map { String($0.prefix { $0 != "," }) })
            #expect(sources == [folder + "/a.png"])
            #expect(rows.filter { $0.contains(",,,failed,") } == [
                "\(deep.firstTooLong),,,failed,,,,,,,,,,,,,,,,,,,,,,cannot read folder: File name too long",
            ])
        }
    }

    @Test("control characters in a file name are escaped in its message, which stays one line")
    func controlCharactersInNames() throws {
        try TestSupport.withTemporaryFolder { folder in
            let name = "x.jpg\nfacekit: forged.jpg: all fine\u{1B}[2K\u{9B}1A"
            let text = try TestSupport.makeFile(folder, name, contents: Data("not an image".utf8))
            let run = TestSupport.analyze([text, folder + "/missing\r.jpg"])
            #expect(run.status == 1)
            #expect(
                run.stderrLines == [
                    #"facekit: \#(folder)/x.jpg\x0Afacekit: forged.jpg: all fine\x1B[2K\xC2\x9B1A: "#
                        + "not a readable image: unknown format or corrupt data",
                    #"facekit: \#(folder)/missing\x0D.jpg: cannot read file: No such file or directory"#,
                ])
            let usage = TestSupport.run(["analyze", "--mode", "fast\n\u{1B}[1m", "a.jpg"])
            #expect(usage.stderrLines.first == #"Error: The value 'fast\x0A\x1B[1m' is invalid for '--mode <mode>'. "#
                + "Please provide one of 'fast' or 'accurate'.")
        }
    }

    @Test("an image over --max-pixels is refused with a message naming it")
    func tooLarge() {
        let run = TestSupport.analyze(["--max-pixels", "1000", TestSupport.astronaut])
        #expect(run.status == 1)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.hasPrefix("facekit: \(TestSupport.astronaut)"))
        #expect(run.stdoutLines.count == 2 && run.stdoutLines.first == CSVFaceWriterTests.fixedHeader)
        #expect(run.stdoutLines.last?.hasPrefix(TestSupport.astronaut + ",,,failed,") == true)
    }

    @Test("a JPEG whose TEM marker hides its size is refused over --max-pixels by name, and the run goes on")
    func temporaryMarkerOverLimit() throws {
        try TestSupport.withTemporaryFolder { folder in
            // 3072x1536 pixels behind a fake 1x4 frame (CraftedHeaderTests.withTemporaryMarker).
            let jpeg = try Data(contentsOf: URL(fileURLWithPath: TestData.fixture("astronaut-3072x1536.jpg")))
            var crafted = Data([0xFF, 0xD8, 0xFF, 0x01, 0xFF, 0xEF, 0xFF, 0xFF]) + Data(count: 0xFFFF - 2)
            crafted.replaceSubrange(65523..<65532, with: [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x04, 0x00, 0x01])
            crafted += jpeg.dropFirst(2)
            let path = try TestSupport.makeFile(folder, "crafted.jpg", contents: crafted)
            let run = TestSupport.analyze(["--max-pixels", "1000000", path, TestSupport.astronaut])
            #expect(run.status == 1)
            #expect(run.stderrLines == ["facekit: \(path): image too large: 3072x1536 pixels is over the limit of 1000000"])
            // The refused photo's one row says so (a failed row); the other photo is analysed.
            let table = try CSVTable(text: run.stdout)
            try #require(table.column("status") != nil, "\(table.header)")
            let rows = table.records
            #expect(rows.filter { $0["source"] == path }.map { $0["status"] } == ["failed"])
            #expect(rows.filter { $0["source"] == TestSupport.astronaut }.map { $0["status"] } == ["detected"])
            #expect(rows.count == 2)
        }
    }

    @Test("folders are walked in path order and non-images skipped quietly")
    func folderWalk() throws {
        try TestSupport.withTemporaryFolder { folder in
            let data = try TestSupport.astronautData()
            try TestSupport.makeFile(folder, "b/face.PNG", contents: data)
            try TestSupport.makeFile(folder, "a.png", contents: data)
            try TestSupport.makeFile(folder, "notes.txt", contents: Data("hello".utf8))
            let run = TestSupport.analyze([folder])
            #expect(run.status == 0)
            #expect(run.stderr.isEmpty)
            let sources = run.stdoutLines.dropFirst().map { String($0.prefix { $0 != "," }) }
            #expect(Array(NSOrderedSet(array: sources)) as? [String] == [folder + "/a.png", folder + "/b/face.PNG"])
        }
    }

    @Test("a phone's HEIC photo in a folder is found and analysed upright")
    func heicInFolder() throws {
        let fixtures = URL(fileURLWithPath: TestSupport.astronaut).deletingLastPathComponent()
        let heic = try Data(contentsOf: fixtures.appendingPathComponent("astronaut-portrait-irot.heic"))
        try TestSupport.withTemporaryFolder { folder in
            // Stored sideways with a rotation property (and EXIF orientation 6), as an iPhone does.
            try TestSupport.makeFile(folder, "IMG_0001.HEIC", contents: heic)
            let run = TestSupport.analyze([folder])
            #expect(run.status == 0, "\(run.stderr)")
            let rows = run.stdoutLines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            try #require(rows.count == 1, "one face: \(run.stdoutLines)")
            #expect(rows[0][0] == folder + "/IMG_0001.HEIC")
            let roll = try #require(Double(rows[0][14]))
            #expect(abs(roll) < 15, "an upright face has little roll: \(roll)")
        }
    }

    @Test("--output replaces the file only when complete and leaves no temporary file")
    func outputFile() throws {
        try TestSupport.withTemporaryFolder { folder in
            let output = folder + "/faces.csv"
            try Data("old content\n".utf8).write(to: URL(fileURLWithPath: output))
            let run = TestSupport.analyze(["--output", output, TestSupport.astronaut, folder + "/missing.png"])
            #expect(run.status == 1)
            #expect(run.stdout.isEmpty)
            #expect(run.stderrLines.count == 1)
            let written = try String(contentsOfFile: output, encoding: .utf8)
            #expect(written.hasPrefix(CSVFaceWriterTests.fixedHeader + "\n" + TestSupport.astronaut + ","))
            // The journal stays as the record of what made the file (--resume compares with it).
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["faces.csv", "faces.csv.journal"])
        }
    }

    @Test("an --output in a missing folder makes the folder, with its parents, as README's results/faces-2.csv needs")
    func outputFolderMissing() throws {
        try TestSupport.withTemporaryFolder { folder in
            let output = folder + "/results/2026/faces-2.csv"
            let run = TestSupport.analyze(["--shard", "1/1", "--output", output, TestSupport.astronaut])
            #expect(run.status == 0, "\(run.stderr)")
            let written = try String(contentsOfFile: output, encoding: .utf8)
            #expect(written.hasPrefix(CSVFaceWriterTests.fixedHeader))
        }
    }

    @Test("an --output whose folder is a file is a runtime failure that names the file")
    func outputFolderIsAFile() throws {
        try TestSupport.withTemporaryFolder { folder in
            let file = try TestSupport.makeFile(folder, "results")
            let run = TestSupport.analyze(["--output", file + "/faces.csv", TestSupport.astronaut])
            #expect(run.status == 1)
            #expect(run.stderrLines == ["facekit: \(file): cannot make folder: it is a file, not a folder"])
            #expect(run.stdout.isEmpty)
        }
    }

    @Test("JSON Lines output parses and carries landmarks, contours and absence reasons")
    func jsonLines() throws {
        let run = TestSupport.analyze(["--format", "jsonl", "--landmarks", "--contours", TestSupport.astronaut])
        #expect(run.status == 0)
        let lines = run.stdoutLines
        #expect(!lines.isEmpty)
        let objects = try lines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        for object in objects {
            #expect(object["source"] as? String == TestSupport.astronaut)
            #expect((object["landmarks"] as? [String: Any])?.count == 10)
            let absent = try #require(object["absent"] as? [String: String])
            #expect(absent["smiling_probability"] == "not_requested")
            #expect(object["smiling_probability"] is NSNull)
        }
        let contourCounts = objects.map { ($0["contours"] as? [String: Any])?.count ?? -1 }
        #expect(
            contourCounts.filter { $0 > 0 }.count == 1, "only the most prominent face has contours: \(contourCounts)")
    }

    @Test("--landmarks adds 20 filled columns")
    func landmarkColumns() throws {
        let run = TestSupport.analyze(["--landmarks", TestSupport.astronaut])
        #expect(run.status == 0)
        let table = try CSVTable(text: run.stdout)
        #expect(table.header.count == 46)
        let row = try #require(table.rows.first)
        #expect(row.count == 46)
        #expect(table.column("left_eye_x") == 26 && table.column("left_eye_y") == 27)
        #expect(!row[26].isEmpty && !row[27].isEmpty)  // left_eye
    }
}

/// A few runs of the built `facekit` binary, as a user would.
@Suite(
    "facekit executable",
    .enabled(
        if: TestSupport.executable != nil,
        "the facekit executable was not found next to the test bundle; run `swift build` first"))
struct ExecutableTests {
    @Test("--version and usage errors exit with their status")
    func statuses() throws {
        let version = try TestSupport.runExecutable(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "0.1.0\n")
        let usage = try TestSupport.runExecutable(["analyze", "--mode", "slow", "a.jpg"])
        #expect(usage.status == 64)
        #expect(usage.stderr.hasPrefix("Error: The value 'slow' is invalid for '--mode <mode>'"))
    }

    @Test(
        "a damaged JPEG gets one line naming it as corrupt, and the decoder prints nothing of its own",
        .enabled(if: TestSupport.modelsAvailable, TestSupport.modelsMissingMessage))
    func damagedJPEG() throws {
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: TestData.fixture("astronaut.jpg")))
        try TestSupport.withTemporaryFolder { folder in
            let cut = try TestSupport.makeFile(folder, "cut.jpg", contents: jpeg.prefix(jpeg.count / 2) + [0xFF, 0xD9])
            let run = try TestSupport.runExecutable(["analyze", "--model-dir", TestSupport.modelDirectory!, cut])
            #expect(run.status == 1)
            #expect(run.stderrLines.count == 1, "\(run.stderrLines)")
            #expect(run.stderr.hasPrefix("facekit: \(cut): not a readable image: corrupt image data"), "\(run.stderr)")
            #expect(run.stdoutLines.count == 2 && run.stdoutLines.first == CSVFaceWriterTests.fixedHeader)
            #expect(run.stdoutLines.last?.hasPrefix(cut + ",,,failed,") == true)
        }
    }

    @Test(
        "a file named on the command line whose name is not UTF-8 is analysed, its source written with \\xE9",
        .enabled(if: TestSupport.modelsAvailable, TestSupport.modelsMissingMessage))
    func nonUTF8Argument() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photo = try TestSupport.astronautData()
            try TestSupport.makeFile(folder, nameBytes: TestSupport.latin1Name, contents: photo)
            let run = try TestSupport.runExecutableThroughShell(
                #"exec "$0" analyze --model-dir "$1" "$2/$(printf 'caf\351.png')""#,
                [TestSupport.modelDirectory!, folder])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.isEmpty)
            let row = run.stdoutLines.dropFirst().first
            #expect(row?.hasPrefix(folder + #"/caf\xE9.png,,,detected,0,,"#) == true, "\(run.stdout)")
        }
    }

    @Test(
        "a good and a missing file: one row written, one error line, exit status 1",
        .enabled(if: TestSupport.modelsAvailable, TestSupport.modelsMissingMessage))
    func analyze() throws {
        let run = try TestSupport.runExecutable([
            "analyze", "--model-dir", TestSupport.modelDirectory!, TestSupport.astronaut, "/nonexistent/x.jpg",
        ])
        #expect(run.status == 1)
        let ours = run.stderrLines.filter { $0.hasPrefix("facekit: ") }
        #expect(ours.count == 1)
        #expect(ours.first?.hasPrefix("facekit: /nonexistent/x.jpg") == true)
        #expect(run.stderrLines.count == ours.count, "nothing else on stderr: \(run.stderrLines)")
        #expect(run.stdoutLines.first == CSVFaceWriterTests.fixedHeader)
        #expect(run.stdoutLines.dropFirst().first?.hasPrefix(TestSupport.astronaut + ",,,detected,0,,") == true)
        #expect(run.stdoutLines.last?.hasPrefix("/nonexistent/x.jpg,,,failed,") == true)
    }
}
