import FaceKit
import FaceKitArguments
import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// `--known` and `--descriptors` on the development identities (photos/identities: reference
/// photos of 5 people in train/, other photos of them in test/).
@Suite("Known people", .needsModels, .needsSharedData)
struct KnownPeopleTests {
    static let identities = TestData.shared("photos/identities")

    /// A known folder made of some of train/'s people: `folders` copied as DIR/<name>/, `files`
    /// (person, image) copied as DIR/<person>.jpg.
    static func knownFolder(_ root: String, folders: [String], files: [(String, String)] = []) throws -> String {
        let known = root + "/known"
        for name in folders {
            try FileManager.default.createDirectory(atPath: known, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: identities + "/train/" + name, toPath: known + "/" + name)
        }
        for (name, image) in files {
            try TestSupport.makeFile(known, name + ".jpg", contents: Data(contentsOf: URL(fileURLWithPath: image)))
        }
        return known
    }

    /// (file name, person) of each CSV row.
    static func people(_ run: TestSupport.Run) throws -> [(file: String, person: String)] {
        let table = try CSVTable(text: run.stdout)
        let sources = try #require(table.cells("source")), people = try #require(table.cells("person"))
        return zip(sources, people).map { (($0 as NSString).lastPathComponent, $1) }
    }

    @Test("every face of a known person in test/ is named after them, from both folder layouts")
    func naming() throws {
        try TestSupport.withTemporaryFolder { root in
            let known = try Self.knownFolder(
                root, folders: ["alex_lacamoire", "biden", "kit_harington", "obama"],
                files: [("rose_leslie", Self.identities + "/train/rose_leslie/img1.jpg")])
            let run = TestSupport.analyze(["--known", known, Self.identities + "/test"])
            #expect(run.status == 0, "\(run.stderr)")
            let named = try Self.people(run)
            let expected = [
                "alex_lacamoire1.jpg": ["alex_lacamoire"], "johnsnow_test1.jpg": ["kit_harington"],
                "kit_with_rose.jpg": ["rose_leslie", "kit_harington"], "obama1.jpg": ["obama"],
            ]
            for (file, people) in expected {
                #expect(named.filter { $0.file == file }.map(\.person) == people, "\(file)")
            }
            // obama_and_biden.jpg: Biden, Obama, and a third man who is none of the known people.
            #expect(named.filter { $0.file == "obama_and_biden.jpg" }.map(\.person) == ["biden", "obama", ""])
        }
    }

    @Test("a face whose person is not among the known is left unnamed, not given the nearest name")
    func stranger() throws {
        try TestSupport.withTemporaryFolder { root in
            let known = try Self.knownFolder(root, folders: ["obama", "biden"])
            let run = TestSupport.analyze(["--known", known, Self.identities + "/test/kit_with_rose.jpg"])
            #expect(run.status == 0)
            let table = try CSVTable(text: run.stdout)
            #expect(table.rows.count == 2)
            try #require(table.column("person") != nil && table.column("person_distance") != nil, "\(table.header)")
            for row in table.records {
                #expect(row["person"] == "", "named \(row["person"] ?? "")")
                #expect(Double(row["person_distance"]!)! > KnownPeople.defaultTolerance)
            }
        }
    }

    @Test("a corrupt reference image and one with two faces are named in warnings and skipped")
    func badReferences() throws {
        try TestSupport.withTemporaryFolder { root in
            let known = try Self.knownFolder(
                root, folders: ["obama"], files: [("group", Self.identities + "/test/obama_and_biden.jpg")])
            let obama = try Data(contentsOf: URL(fileURLWithPath: Self.identities + "/train/obama/obama.jpg"))
            try TestSupport.makeFile(known, "obama/broken.jpg", contents: obama.prefix(obama.count / 3))
            let run = TestSupport.analyze(["--known", known, Self.identities + "/test/obama1.jpg"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("broken.jpg: skipped as a reference image of obama"))
            #expect(run.stderr.contains("group.jpg: skipped as a reference image of group: 3 faces found"))
            #expect(try Self.people(run).map(\.person) == ["obama"])
        }
    }

    @Test("an empty or missing --known folder is a usage error")
    func emptyFolder() throws {
        try TestSupport.withTemporaryFolder { root in
            let empty = TestSupport.analyze(["--known", root, TestSupport.astronaut])
            #expect(empty.status == 64)
            #expect(empty.stderr.contains("it holds no images"))
            let missing = TestSupport.analyze(["--known", root + "/nowhere", TestSupport.astronaut])
            #expect(missing.status == 64)
            #expect(missing.stderr.contains("no such folder"))
            let file = try TestSupport.makeFile(root, "Ada.jpg", contents: TestSupport.astronautData())
            let given = TestSupport.analyze(["--known", file, TestSupport.astronaut])
            #expect(given.status == 64)
            #expect(given.stderr.contains("Invalid '--known \(file)': a file, not a folder"), "\(given.stderr)")
        }
    }

    @Test("hidden entries and person folders without an image are named in a warning, not dropped silently")
    func skippedEntries() throws {
        try TestSupport.withTemporaryFolder { root in
            let known = root + "/known"
            try TestSupport.makeFile(known, "Eileen Collins.png", contents: TestSupport.astronautData())
            try TestSupport.makeFile(known, ".cache/a.png", contents: TestSupport.astronautData())
            try TestSupport.makeFile(known, "Nobody/notes.txt", contents: Data("no photo yet\n".utf8))
            let run = TestSupport.analyze(["--known", known, TestSupport.astronaut])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("\(known)/.cache: skipped in '--known': a hidden name"), "\(run.stderr)")
            #expect(run.stderr.contains("\(known)/Nobody: skipped in '--known': the folder holds no image"), "\(run.stderr)")
            #expect(Self.people(run).map(\.person) == ["Eileen Collins"])
        }
    }

    @Test("a person folder whose name is not UTF-8 names its person as the table writes such bytes, and says so")
    func latin1Folder() throws {
        try TestSupport.withTemporaryFolder { root in
            let known = root + "/known"
            let folder = KnownFolderTests.makeFolder(known, nameBytes: Array("Jos".utf8) + [0xE9])
            try KnownFolderTests.makeFile(folder + Array("/a.png".utf8), contents: TestSupport.astronautData())
            let run = TestSupport.analyze(["--known", known, TestSupport.astronaut])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(Self.people(run).map(\.person) == [#"Jos\xE9"#])
            #expect(run.stderrLines == [#"facekit: \#(known)/Jos\xE9: a name that is not UTF-8; this person is named 'Jos\xE9'"#])
        }
    }

    @Test("--descriptors writes 128 numbers per face in JSON Lines, closer for one person than for two")
    func descriptors() throws {
        let run = TestSupport.analyze([
            "--descriptors", "--format", "jsonl", Self.identities + "/train/obama", Self.identities + "/train/biden",
        ])
        #expect(run.status == 0)
        let vectors = try run.stdoutLines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["descriptor"] as? [Double])
        }
        #expect(vectors.count == 4)
        #expect(vectors.allSatisfy { $0.count == 128 })
        func distance(_ a: [Double], _ b: [Double]) -> Double { zip(a, b).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot() }
        // Rows in path order: biden.jpg, biden2.jpg (biden/), obama.jpg, obama2.jpg.
        #expect(distance(vectors[0], vectors[1]) < 0.6)
        #expect(distance(vectors[2], vectors[3]) < 0.6)
        #expect(distance(vectors[0], vectors[2]) > 0.6)
    }

    @Test("--descriptors with CSV output and a tolerance that is not positive are usage errors")
    func usageErrors() {
        #expect(TestSupport.analyze(["--descriptors", TestSupport.astronaut]).status == 64)
        #expect(TestSupport.analyze(["--known", "/tmp", "--known-tolerance", "0", TestSupport.astronaut]).status == 64)
    }
}

@Suite("annotate --known")
struct AnnotateKnownPeopleTests {
    @Test("a face's tag holds its ID, its name, or both")
    func tags() {
        #expect(FaceAnnotation.tagText(id: 3, name: "rose_leslie") == "ID 3 rose_leslie")
        #expect(FaceAnnotation.tagText(id: 3, name: nil) == "ID 3")
        #expect(FaceAnnotation.tagText(id: nil, name: "obama") == "obama")
        #expect(FaceAnnotation.tagText(id: nil, name: nil) == nil)
    }

    @Test("names are drawn into the copy: it differs from one without --known only where a tag is", .needsModels, .needsSharedData)
    func namesDrawn() throws {
        try TestSupport.withTemporaryFolder { root in
            let photo = KnownPeopleTests.identities + "/test/obama1.jpg"
            let known = try KnownPeopleTests.knownFolder(root, folders: ["obama"])
            let plain = TestSupport.run([
                "annotate", "--model-dir", TestSupport.modelDirectory!, "--output", root + "/plain", photo,
            ])
            let named = TestSupport.run([
                "annotate", "--model-dir", TestSupport.modelDirectory!, "--known", known, "--output", root + "/named", photo,
            ])
            #expect(plain.status == 0 && named.status == 0, "\(plain.stderr) \(named.stderr)")
            let a = try FaceImage(contentsOfFile: root + "/plain/obama1.jpg")
            let b = try FaceImage(contentsOfFile: root + "/named/obama1.jpg")
            #expect(try a.pixels() != b.pixels())
        }
    }
}

/// The reading of a `--known` folder's names, without models.
@Suite("--known folder names")
struct KnownFolderTests {
    /// Makes the folder `parent/<nameBytes>` (bytes that need not be UTF-8, which FileManager
    /// cannot name) and returns its path's bytes.
    @discardableResult
    static func makeFolder(_ parent: String, nameBytes: [UInt8]) -> [UInt8] {
        try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let path = Array(parent.utf8) + [UInt8(ascii: "/")] + nameBytes
        let made = (path + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) }
        }
        #expect(made == 0, "cannot create \(path)")
        return path
    }

    /// Writes `contents` to the file whose path is the bytes `path` (FileManager would write
    /// the UTF-8 of their FilePathEncoding string instead).
    static func makeFile(_ path: [UInt8], contents: Data = Data()) throws {
        let descriptor = (path + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        try #require(descriptor >= 0, "cannot create \(path)")
        defer { close(descriptor) }
        let written = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        try #require(written == contents.count)
    }

    @Test("names that are not UTF-8, of a folder or of an image, are people named by their \\xHH text")
    func latin1Names() throws {
        try TestSupport.withTemporaryFolder { root in
            let known = root + "/known"
            let folderBytes = Self.makeFolder(known, nameBytes: Array("Jos".utf8) + [0xE9])
            let folder = FilePathEncoding.string(fromPathBytes: folderBytes)
            try Self.makeFile(folderBytes + Array("/a.png".utf8))
            try TestSupport.makeFile(known, nameBytes: Array("Ren".utf8) + [0xE9] + Array(".jpg".utf8), contents: Data())
            try TestSupport.makeFile(known, "Ada/b.jpg")
            Self.makeFolder(known, nameBytes: [0xFF])
            let (people, notes) = try KnownPeople.referenceImages(in: known)
            #expect(people.map(\.name) == ["Ada", #"Jos\xE9"#, #"Ren\xE9"#])
            #expect(people[1].paths == [folder + "/a.png"])
            #expect(FilePathEncoding.pathBytes(people[2].paths[0]) == Array((known + "/Ren").utf8) + [0xE9] + Array(".jpg".utf8))
            let empty = FilePathEncoding.string(fromPathBytes: Array((known + "/").utf8) + [0xFF])
            let skipped = notes.filter { if case .folderWithoutImage = $0.kind { true } else { false } }
            #expect(skipped.map(\.path) == [empty])
            #expect(skipped.map(\.reason) == ["the folder holds no image, so \(FilePathEncoding.string(fromPathBytes: [0xFF])) cannot be named"])
            let output = StringOutput()
            for note in notes where note.kind != skipped.first?.kind { output.writeDiagnostic(KnownPeople.message(note)) }
            #expect(
                output.text.split(separator: "\n") == [
                    #"facekit: \#(known)/Jos\xE9: a name that is not UTF-8; this person is named 'Jos\xE9'"#,
                    #"facekit: \#(known)/Ren\xE9.jpg: a name that is not UTF-8; this person is named 'Ren\xE9'"#,
                ])
        }
    }
}
