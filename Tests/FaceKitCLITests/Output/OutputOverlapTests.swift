import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// An output that is an input: `analyze --output photo.jpg photo.jpg` and `--output *.jpg` (the
/// table's name forgotten, the shell's glob giving the first photo to `--output`), `track
/// --summary F --output F`, `report --output photos photos`. Each is a usage error before anything
/// is written, by the one check `merge` and `annotate` make too (``OutputOverlap``).
@Suite("an output that is an input")
struct OutputOverlapTests {
    /// Two photos and a video in `folder/media`; the files' contents, to check nothing changed.
    static func media(in folder: String) throws -> (a: String, b: String, clip: String, contents: [String: Data]) {
        let astronaut = try TestSupport.astronautData()
        let a = try TestSupport.makeFile(folder, "media/a.jpg", contents: astronaut)
        let b = try TestSupport.makeFile(folder, "media/b.jpg", contents: astronaut)
        let clip = try TestSupport.makeFile(folder, "media/clip.mp4", contents: Data("not really a video".utf8))
        return (a, b, clip, [a: astronaut, b: astronaut, clip: Data("not really a video".utf8)])
    }

    /// Expects a usage error (exit 64) that starts with `message`, nothing on standard output, and
    /// `folder` holding exactly `contents` (no file written, none changed).
    static func expectRefused(
        _ arguments: [String], _ message: String, folder: String, contents: [String: Data],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let run = TestSupport.run(arguments)
        #expect(run.status == 64, "\(arguments): \(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(run.stderr.hasPrefix("Error: " + message), "\(run.stderr)", sourceLocation: sourceLocation)
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder).map { folder + "/" + $0 }.filter {
            (try? FileManager.default.attributesOfItem(atPath: $0))?[.type] as? FileAttributeType != .typeDirectory
        }
        #expect(Set(files) == Set(contents.keys), "no file written: \(files)", sourceLocation: sourceLocation)
        for (path, data) in contents {
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data, "\(path) unchanged", sourceLocation: sourceLocation)
        }
    }

    @Test("analyze --output naming one of its photos, by any path, is a usage error and the photo stays")
    func analyzeOutputIsInput() throws {
        try TestSupport.withTemporaryFolder { folder in
            let (a, b, _, media) = try Self.media(in: folder)
            var contents = media
            let link = folder + "/media/link.jpg"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: a)
            contents[link] = contents[a]
            let hard = folder + "/media/hard.jpg"
            try FileManager.default.linkItem(atPath: b, toPath: hard)
            contents[hard] = contents[b]
            try Self.expectRefused(
                ["analyze", "--output", a, a, b],
                "'--output \(a)' is one of the inputs: the table would replace it; give the table a file of its own",
                folder: folder, contents: contents)
            for (output, input) in [(folder + "/media/../media/a.jpg", a), (link, a), (hard, b), (a, link)] {
                try Self.expectRefused(
                    ["analyze", "--format", "jsonl", "--output", output, input],
                    "'--output \(output)' is one of the inputs (\(input)): the table would replace it",
                    folder: folder, contents: contents)
            }
        }
    }

    @Test("analyze --output *.jpg, as the shell expands it (the first photo to --output), is a usage error")
    func analyzeGlob() throws {
        try TestSupport.withTemporaryFolder { folder in
            let (a, b, _, contents) = try Self.media(in: folder)
            for arguments in [["analyze", "--output", a, b], ["analyze", "--output", a, folder + "/media"]] {
                try Self.expectRefused(
                    arguments,
                    "'--output \(a)' is an existing photo or video, which the table would replace (a shell expands "
                        + "'--output *.jpg' to its first match): give the table a file of its own, such as faces.csv",
                    folder: folder, contents: contents)
            }
        }
    }

    @Test("track --summary and --output naming one file, or either naming a video, is a usage error")
    func trackSummaryIsOutput() throws {
        try TestSupport.withTemporaryFolder { folder in
            let (_, _, clip, contents) = try Self.media(in: folder)
            let table = folder + "/tracks.csv"
            try Self.expectRefused(
                ["track", "--summary", table, "--output", table, clip],
                "'--summary \(table)' and '--output \(table)' name the same file: the summary would replace the rows",
                folder: folder, contents: contents)
            try Self.expectRefused(
                ["track", "--summary", folder + "/media/../tracks.csv", "--output", table, clip],
                "'--summary \(folder)/media/../tracks.csv' and '--output \(table)' name the same file",
                folder: folder, contents: contents)
            try Self.expectRefused(
                ["track", "--output", clip, clip], "'--output \(clip)' is one of the inputs: the table would replace it",
                folder: folder, contents: contents)
            try Self.expectRefused(
                ["track", "--summary", clip, clip], "'--summary \(clip)' is one of the inputs: the table would replace it",
                folder: folder, contents: contents)
        }
    }

    @Test("report --output naming a folder it analyses (or a folder holding one or a photo) is a usage error, not 0 photos")
    func reportOutputIsInput() throws {
        try TestSupport.withTemporaryFolder { folder in
            let (a, _, _, contents) = try Self.media(in: folder)
            let media = folder + "/media"
            let reason =
                "report skips the photos and videos in its output folder (an earlier report's pictures), so none "
                + "would be analysed; choose another --output folder"
            try Self.expectRefused(
                ["report", "--output", media, media],
                "The input '\(media)' is the '--output <folder>' itself (\(media)): \(reason)", folder: folder,
                contents: contents)
            try Self.expectRefused(
                ["report", "--output", folder, media],
                "The input '\(media)' is inside the '--output <folder>' (\(folder)): \(reason)", folder: folder,
                contents: contents)
            try Self.expectRefused(
                ["report", "--output", media, a], "The input '\(a)' is inside the '--output <folder>' (\(media)): \(reason)",
                folder: folder, contents: contents)
        }
    }

    @Test("merge --output naming a shard by another path is refused as naming it does")
    func mergeOutputIsShard() throws {
        try TestSupport.withTemporaryFolder { folder in
            let shard = try TestSupport.makeFile(folder, "faces-1.csv", contents: Data("source\n".utf8))
            let link = folder + "/link.csv"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: shard)
            let run = TestSupport.run(["merge", "--output", link, shard + ".journal", folder + "/faces-2.csv"])
            #expect(run.status == 64)
            #expect(run.stderr.hasPrefix("Error: '--output \(link)' is one of the shards to merge"), "\(run.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: shard)) == Data("source\n".utf8))
        }
    }

    @Test("the shared check: the same file by any path, a missing file by its path, and nothing else")
    func replacedInput() throws {
        try TestSupport.withTemporaryFolder { folder in
            let a = try TestSupport.makeFile(folder, "a.csv", contents: Data("x".utf8))
            #expect(OutputOverlap.replacedInput(output: folder + "/./a.csv", among: [folder + "/b.csv", a]) == a)
            #expect(OutputOverlap.replacedInput(output: folder + "/new.csv", among: [folder + "/x/../new.csv"]) != nil)
            #expect(OutputOverlap.replacedInput(output: folder + "/b.csv", among: [a]) == nil)
            #expect(OutputOverlap.tableProblem(option: "output", output: folder + "/faces.csv", inputs: [a]) == nil)
            // A photo's name that nothing has yet is no photo replaced.
            #expect(OutputOverlap.tableProblem(option: "output", output: folder + "/new.jpg", inputs: [a]) == nil)
        }
    }
}
