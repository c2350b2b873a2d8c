import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// `facekit analyze --resume --output FILE` where `FILE` is already there: continued or left
/// alone only when its journal records the same inputs and options, refused otherwise, on the
/// development photos.
@Suite("analyze --resume over a complete output", .needsModels, .needsSharedData)
struct ResumeCompleteTests {
    typealias Fixture = PhotoCollectionFixture

    /// Four development photos (five faces) copied into `folder/photos`, in walk order.
    static let photoNames = ["biden.jpg", "obama.jpg", "obama_small.jpg", "two_people.jpg"]

    static func makePhotos(in folder: String) throws -> String {
        let photos = folder + "/photos"
        for name in photoNames {
            try TestSupport.makeFile(
                photos, name, contents: Fixture.read(TestData.shared("photos/face_recognition/" + name)))
        }
        return photos
    }

    /// The names in `folder` with their contents, to show that a refusal changed nothing.
    static func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try Fixture.listing(folder) where name != "photos" {
            files[name] = try Fixture.read(folder + "/" + name)
        }
        return files
    }

    @Test(
        "a complete output made with other options or inputs is refused naming what differs, and nothing changes",
        arguments: [
            (
                ["--min-face-size", "0.2"], ["--min-face-size", "0.1"],
                "--min-face-size 0.2; this run asks --min-face-size 0.1"
            ),
            (["--classify"], [], "--classify; this run asks no --classify"),
            (
                [], ["--landmarks", "--format", "jsonl"],
                "--format csv, no --landmarks; this run asks --format jsonl, --landmarks"
            ),
            (
                ["--min-detection-score", "0.7"], ["--min-detection-score", "0.5"],
                "--min-detection-score 0.7; this run asks --min-detection-score 0.5"
            ),
        ])
    func otherOptions(made: [String], asked: [String], differs: String) throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Self.makePhotos(in: folder)
            let output = folder + "/faces.csv"
            let first = Fixture.analyze(made + ["--output", output, photos])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").count > 4)
            let before = try Self.snapshot(folder)
            let run = Fixture.analyze(asked + ["--resume", "--output", output, photos])
            #expect(run.status == 64)
            #expect(
                run.stderr.hasPrefix(
                    "Error: --resume: \(output) was made with \(differs); use another --output or drop --resume"
                ),
                "\(run.stderr)")
            #expect(try Self.snapshot(folder) == before)
        }
    }

    @Test("a complete output made from other paths is refused naming them")
    func otherPaths() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Self.makePhotos(in: folder)
            let output = folder + "/faces.csv"
            #expect(Fixture.analyze(["--output", output, photos + "/obama.jpg"]).status == 0)
            let before = try Self.snapshot(folder)
            let run = Fixture.analyze(["--resume", "--output", output, photos])
            #expect(run.status == 64)
            #expect(
                run.stderr.hasPrefix(
                    "Error: --resume: \(output) was made with the paths \(photos)/obama.jpg; this run asks the paths "
                        + "\(photos); use another --output or drop --resume"),
                "\(run.stderr)")
            #expect(try Self.snapshot(folder) == before)
        }
    }

    @Test(
        "a complete output whose folder gained or lost photos since is refused, naming the first change"
    )
    func collectionChanged() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Self.makePhotos(in: folder)
            let output = folder + "/faces.csv"
            #expect(Fixture.analyze(["--output", output, photos]).status == 0)
            let before = try Self.snapshot(folder)

            // Walked after the last photo the run analysed.
            try TestSupport.makeFile(photos, "zz.jpg", contents: Fixture.read(photos + "/obama.jpg"))
            let added = Fixture.analyze(["--resume", "--output", output, photos])
            #expect(added.status == 1)
            #expect(
                added.stderrLines == [
                    "facekit: \(output): cannot resume: the collection has files the run that made it did not have "
                        + "(the first: \(photos)/zz.jpg); use another --output or drop --resume"
                ])
            try FileManager.default.removeItem(atPath: photos + "/zz.jpg")

            try FileManager.default.removeItem(atPath: photos + "/obama_small.jpg")
            let removed = Fixture.analyze(["--resume", "--output", output, photos])
            #expect(removed.status == 1)
            #expect(
                removed.stderr.hasPrefix(
                    "facekit: \(output): cannot resume: the first 4 files are not those the run that made it analysed "
                        + "(it ended with \(photos)/two_people.jpg, this walk has only 3)"),
                "\(removed.stderr)")
            #expect(try Self.snapshot(folder) == before)
        }
    }

    @Test(
        "an output no journal records (written to standard output, or by something else since) is refused"
    )
    func unrecorded() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Self.makePhotos(in: folder)
            let output = folder + "/faces.csv"
            // facekit analyze photos/ > faces.csv
            let redirected = Fixture.analyze([photos])
            try redirected.stdout.write(toFile: output, atomically: false, encoding: .utf8)
            let run = Fixture.analyze(["--resume", "--output", output, photos])
            #expect(run.status == 64)
            #expect(
                run.stderr.hasPrefix(
                    "Error: --resume: \(output) has no \(output).journal recording the inputs and options it was made "
                        + "with (written without --output, by an earlier facekit, or its journal removed), so it may "
                        + "not be this run's; use another --output or drop --resume"),
                "\(run.stderr)")
            #expect(try Fixture.listing(folder) == ["faces.csv", "photos"])

            // A complete run's journal, then the file written over by a redirection of another run.
            #expect(Fixture.analyze(["--output", output, photos]).status == 0)
            let other = Fixture.analyze([photos + "/obama.jpg"])
            try other.stdout.write(toFile: output, atomically: false, encoding: .utf8)
            let overwritten = Fixture.analyze(["--resume", "--output", output, photos])
            #expect(overwritten.status == 64)
            #expect(
                overwritten.stderr.hasPrefix(
                    "Error: --resume: \(output) is not the file \(output).journal records (\(other.stdout.utf8.count) "
                        + "bytes, it records \(redirected.stdout.utf8.count)): it was written since by something else"
                ),
                "\(overwritten.stderr)")
            #expect(try String(contentsOfFile: output, encoding: .utf8) == other.stdout)
        }
    }

    @Test(
        "the same inputs and options resume a stopped run and leave a complete one as it is, with any --jobs"
    )
    func sameRun() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Self.makePhotos(in: folder)
            let options = ["--classify", "--min-face-size", "0.05", "--format", "jsonl"]
            let reference = Fixture.analyze(options + [photos])
            #expect(reference.status == 0, "\(reference.stderr)")
            let output = folder + "/faces.jsonl"
            _ = try Fixture.analyze(options + ["--output", output, photos], stopAfter: 2)
            #expect(!FileManager.default.fileExists(atPath: output))

            let resumed = Fixture.analyze(
                options + ["--jobs", "2", "--resume", "--output", output, photos])
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(try String(contentsOfFile: output, encoding: .utf8) == reference.stdout)
            let complete = try Self.snapshot(folder)
            #expect(complete.keys.sorted() == ["faces.jsonl", "faces.jsonl.journal"])

            let again = Fixture.analyze(options + ["--resume", "--output", output, photos])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stderr.isEmpty)
            #expect(try Self.snapshot(folder) == complete)

            // Without --resume the run starts over and writes the same file.
            let rerun = Fixture.analyze(options + ["--output", output, photos])
            #expect(rerun.status == 0)
            #expect(try Fixture.read(output) == complete["faces.jsonl"])
        }
    }

    @Test("a complete output deleted since is written afresh, whatever made it")
    func deletedOutput() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try Self.makePhotos(in: folder)
            let output = folder + "/faces.csv"
            #expect(Fixture.analyze(["--classify", "--output", output, photos]).status == 0)
            try FileManager.default.removeItem(atPath: output)
            let run = Fixture.analyze(["--resume", "--output", output, photos])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                try String(contentsOfFile: output, encoding: .utf8) == Fixture.analyze([photos]).stdout)
        }
    }
}
