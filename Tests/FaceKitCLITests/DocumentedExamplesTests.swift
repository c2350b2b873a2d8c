import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// README.md's "Use" block and the examples of docs/cli.md, docs/collections.md and docs/gallery.md, run as a new user would: every line as
/// written, in order, in an empty folder where the names they use (`photos/`, `photo.jpg`,
/// `clip.mp4`, `known/`, ...) are the development data, with the `facekit` just built for
/// `.build/release/facekit` (or `facekit`).
///
/// The other shell blocks of README.md are not run here: `scripts/run-sample` and
/// `scripts/test` install packages and build (`scripts/test` is the whole test run), the
/// retraining commands take the data sets for hours, and `fetch-models` writes into the home
/// folder (`scripts/test-dependency` runs README.md's Swift blocks, in a package of their own). docs/cli.md's blocks are run each in a
/// folder of its own (``cliBlocksRun``), but for three: track's examples (a live stream needs
/// a network port and a second ffmpeg; shard 7 of 40 is one of forty), the lone `merge` line
/// (it needs the shards of another block) and the completion scripts (they write into the
/// home folder).
@Suite("documented examples", .needsModels, .needsSharedData)
struct DocumentedExamplesTests {
    /// The shell lines of the first `sh` block after `heading`.
    static func shellLines(after heading: String, in text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: heading),
            let open = lines[start...].firstIndex(of: "```sh")
        else { return [] }
        return Array(lines[(open + 1)...].prefix { $0 != "```" }.filter { !$0.isEmpty })
    }

    /// Makes the inputs the block names in `folder`, as links to the development data: the
    /// photos of five named people, one of their photos, the Hamilton clip, known people in both
    /// of the layouts `--known` takes (a photo per person, a folder per person), and `models/`.
    static func stageInputs(in folder: String) throws {
        let files = FileManager.default
        func link(_ name: String, to data: String) throws {
            try files.createSymbolicLink(atPath: folder + "/" + name, withDestinationPath: TestData.shared(data))
        }
        try link("photos", to: "photos/identities")
        for photo in ["photo.jpg", "extra.jpg", "group.jpg", "portrait.jpg"] {
            try link(photo, to: "photos/identities/test/obama_and_biden.jpg")
        }
        for clip in ["clip.mp4", "party.mp4"] { try link(clip, to: "video/short_hamilton_clip.mp4") }
        try files.createDirectory(atPath: folder + "/known", withIntermediateDirectories: false)
        try link("known/Lin-Manuel Miranda.png", to: "video/hamilton-cast/lin-manuel-miranda.png")
        try link("known/Alex Lacamoire.png", to: "video/hamilton-cast/alex-lacamoire.png")
        try link("known/Barack Obama", to: "photos/identities/train/obama")
        // The folder "models kept somewhere else" names, which --model-dir requires to be there.
        try files.createSymbolicLink(atPath: folder + "/models", withDestinationPath: TestData.models)
    }

    /// Every `sh` block of `text`, as its lines.
    static func shellBlocks(in text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line == "```sh" {
                current = []
            } else if line.hasPrefix("```"), let block = current {
                blocks.append(block)
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Runs `lines` in order in `folder` with the built facekit for the word `facekit`; the first
    /// that fails is recorded and ends the block, whose later lines need its files.
    static func runLines(_ lines: [String], in folder: String) throws {
        let executable = try #require(TestSupport.executable, "the facekit executable is not built")
        for line in lines where !line.isEmpty && !line.hasPrefix("#") {
            var command = line.replacingOccurrences(of: " facekit ", with: " '\(executable)' ")
            if command.hasPrefix("facekit ") { command = "'\(executable)' " + command.dropFirst("facekit ".count) }
            let run = try TestSupport.runProcess("/bin/sh", ["-c", command], in: folder, killedAfter: 900)
            #expect(run.status == 0, "example failed: \(line)\n\(run.stderr)")
            if run.status != 0 { return }
        }
    }

    @Test("every example block of docs/cli.md but three runs as written, in order, each in a folder of its own")
    func cliBlocksRun() throws {
        let docs = try String(contentsOf: TestData.repository.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let blocks = Self.shellBlocks(in: docs).filter { block in
            !block.contains { $0.contains("udp://") || $0.contains("--generate-completion-script") }
                && !(block.filter { !$0.isEmpty }.count == 1 && block.contains { $0.hasPrefix("facekit merge") })
        }
        #expect(blocks.count >= 5, "\(blocks)")
        for block in blocks {
            try TestSupport.withTemporaryFolder { folder in
                try Self.stageInputs(in: folder)
                try Self.runLines(block, in: folder)
            }
        }
    }

    /// docs/collections.md's blocks for one machine and for shards (its Slurm blocks need a cluster:
    /// `scripts/test-slurm` runs them). The shard line is written for shard 2 of 4, meant for four
    /// machines; here the four shards run it in turn, with its shard number changed, before the
    /// merge block.
    @Test("docs/collections.md's one-machine, shard and merge examples run as written, in order, in one folder")
    func collectionBlocksRun() throws {
        let docs = try String(
            contentsOf: TestData.repository.appendingPathComponent("docs/collections.md"), encoding: .utf8)
        let lines = Self.shellBlocks(in: docs).filter { block in
            !block.contains { $0.contains("sbatch") || $0.hasPrefix("#!") }
        }.flatMap { $0 }.filter { !$0.isEmpty }
        let shardLine = try #require(lines.first { $0.contains("--shard 2/4") }, "\(lines)")
        #expect(lines.count == 3, "\(lines)")
        let shards = (1...4).map {
            shardLine.replacingOccurrences(of: "--shard 2/4", with: "--shard \($0)/4")
                .replacingOccurrences(of: "faces-2.csv", with: "faces-\($0).csv")
        }
        let run = lines.flatMap { $0 == shardLine ? shards : [$0] }
        try TestSupport.withTemporaryFolder { folder in
            try Self.stageInputs(in: folder)
            try Self.runLines(run, in: folder)
            // The merge replaced the one-machine run's faces.csv with the shards' rows: one header,
            // a row for every face of every photo.
            let merged = try String(contentsOfFile: folder + "/faces.csv", encoding: .utf8)
            let rows = merged.split(separator: "\n")
            #expect(rows.first?.hasPrefix("source,") == true)
            #expect(rows.filter { $0.hasPrefix("source,") }.count == 1)
            #expect(rows.count > 14, "\(rows.count) lines for the 14 photos")
        }
    }

    /// docs/gallery.md's two `report` lines, from a folder laid out as the repository's is (with
    /// `../shared/data` beside it) and holding the inputs the page names, as `scripts/make-gallery`
    /// stages them.
    @Test("docs/gallery.md's report examples run as written, each making its site")
    func galleryBlocksRun() throws {
        let docs = try String(contentsOf: TestData.repository.appendingPathComponent("docs/gallery.md"), encoding: .utf8)
        let lines = Self.shellBlocks(in: docs).flatMap { $0 }.filter { !$0.isEmpty }
        #expect(lines.count == 2, "\(lines)")
        try TestSupport.withTemporaryFolder { root in
            let files = FileManager.default
            let folder = root + "/repository"
            try files.createDirectory(atPath: root + "/shared", withIntermediateDirectories: false)
            try files.createSymbolicLink(atPath: root + "/shared/data", withDestinationPath: TestData.shared.path)
            for inputs in ["report-in", "known"] {
                try files.createDirectory(atPath: folder + "/" + inputs, withIntermediateDirectories: true)
            }
            for name in ["astronaut.png", "astronaut-portrait.png", "astronaut-gray.png", "astronaut-3072x1536.jpg", "astronaut.webp"] {
                try files.copyItem(atPath: TestData.fixture(name), toPath: folder + "/report-in/" + name)
            }
            try files.copyItem(atPath: TestData.fixture("astronaut.png"), toPath: folder + "/known/Eileen Collins.png")
            try files.copyItem(
                atPath: TestData.repository.appendingPathComponent("TestVideos/crossing.mp4").path,
                toPath: folder + "/crossing.mp4")
            try Self.runLines(lines, in: folder)
            for site in ["dev-report", "report"] {
                #expect(files.fileExists(atPath: folder + "/" + site + "/videos/video-0.html"), "\(site)")
            }
            let people = try String(contentsOfFile: folder + "/report/people.html", encoding: .utf8)
            #expect(people.contains("Eileen Collins"))
        }
    }

    @Test("README.md's Use block is a sequence of facekit lines, each writing files of its own")
    func useBlockShape() throws {
        let readme = try String(contentsOf: TestData.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = Self.shellLines(after: "## Use", in: readme)
        #expect(lines.count >= 10)
        #expect(lines.allSatisfy { $0.contains(".build/release/facekit ") }, "\(lines)")
    }

    @Test("every line of README.md's Use block runs as written, in order, on the development data")
    func useBlockRuns() throws {
        let executable = try #require(TestSupport.executable, "the facekit executable is not built")
        let readme = try String(contentsOf: TestData.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = Self.shellLines(after: "## Use", in: readme)
        try #require(!lines.isEmpty, "README.md has no sh block after ## Use")
        try TestSupport.withTemporaryFolder { folder in
            try Self.stageInputs(in: folder)
            for line in lines {
                let command = line.replacingOccurrences(of: ".build/release/facekit", with: "'\(executable)'")
                let run = try TestSupport.runProcess("/bin/sh", ["-c", command], in: folder, killedAfter: 900)
                #expect(run.status == 0, "README line failed: \(line)\n\(run.stderr)")
                // Later lines read what this one wrote.
                if run.status != 0 { return }
            }
            // The report of the tables shows the photos' faces: no later line replaced faces.csv.
            let overview = try String(contentsOfFile: folder + "/report/index.html", encoding: .utf8)
            let photos = try #require(
                overview.firstMatch(of: /<b>(\d+)<\/b><span>photos with faces/).map { Int($0.1)! }, "\(overview)")
            #expect(photos > 0)
            #expect(try String(contentsOfFile: folder + "/merged.csv", encoding: .utf8).hasPrefix("source,"))
            #expect(FileManager.default.fileExists(atPath: folder + "/named-people/people.csv"))
        }
    }
}
