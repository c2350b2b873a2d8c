import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitArguments
@testable import FaceKitCLI

/// A small photo collection in a temporary folder, for the `--resume` and `--shard` tests: five
/// inputs in walk order, one of them broken, with a file and a folder whose order matters.
///
/// ```
/// photos/a.png  photos/b.jpg  photos/b/c.png  photos/b0.webp  photos/broken.jpg  (and notes.txt, skipped)
/// ```
enum PhotoCollectionFixture {
    static let walkOrder = ["a.png", "b.jpg", "b/c.png", "b0.webp", "broken.jpg"]

    /// Makes `folder/photos` and returns its path.
    @discardableResult
    static func make(in folder: String) throws -> String {
        let photos = folder + "/photos"
        for (name, fixture) in [
            ("a.png", "astronaut.png"), ("b.jpg", "astronaut.jpg"), ("b/c.png", "astronaut-gray.png"),
            ("b0.webp", "astronaut.webp"),
        ] {
            try TestSupport.makeFile(
                photos, name, contents: Data(contentsOf: URL(fileURLWithPath: TestData.fixture(fixture))))
        }
        try TestSupport.makeFile(photos, "broken.jpg", contents: Data("not a photo".utf8))
        try TestSupport.makeFile(photos, "notes.txt", contents: Data("skipped".utf8))
        return photos
    }

    /// Runs `facekit analyze --jobs 1 <arguments>` in process (a later `--jobs` wins): one
    /// detector, since loading the models costs more than analysing these photos.
    static func analyze(_ arguments: [String]) -> TestSupport.Run {
        TestSupport.analyze(["--jobs", "1"] + arguments)
    }

    /// Runs `facekit analyze --jobs 1 <arguments>` in process with a checkpoint after every input
    /// and, after `stopAfter` inputs, an end as abrupt as a kill: no last checkpoint, no rename.
    static func analyze(_ arguments: [String], stopAfter: Int) throws -> TestSupport.Run {
        let out = StringOutput()
        let err = StringOutput()
        let command = try #require(
            try AnalyzeCommand.parse(
                ["--model-dir", TestSupport.modelDirectory ?? "/nonexistent", "--jobs", "1"] + arguments))
        try command.validate()
        let status = try command.run(
            CommandContext(stdout: out, stderr: err),
            hooks: AnalyzeHooks(checkpointInterval: .zero, stopAfter: stopAfter))
        return TestSupport.Run(status: status.rawValue, stdout: out.text, stderr: err.text)
    }

    /// The files in `folder`, sorted.
    static func listing(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    static func read(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
}
