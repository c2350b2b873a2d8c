import FaceKit
import FaceKitTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The 68-point model's flat copy in the model cache (docs/cli.md, "The model cache and temporary
/// files"), as a run meets it: altered on disk, cut short while `track` maps it, and shared by
/// every path to the same model. The built executable runs with `FACEKIT_CACHE_DIR` set to a
/// folder of the test's own.
@Suite(
    "the model cache on disk", .needsModels,
    .enabled(if: TestSupport.executable != nil, "the facekit executable was not found next to the test bundle"))
struct ModelCacheTests {
    static let model = "shape_predictor_68_face_landmarks"

    /// This process's environment with the cache in `folder` (`""`: no cache).
    static func environment(cache folder: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment[ModelCache.environmentVariable] = folder
        return environment
    }

    /// Runs `facekit analyze --landmarks` on the astronaut with the cache in `cache`.
    static func analyze(cache: String, models: String? = nil) throws -> TestSupport.Run {
        try TestSupport.runProcess(
            try #require(TestSupport.executable),
            ["analyze", "--landmarks", "--model-dir", models ?? TestData.models, TestSupport.astronaut],
            environment: environment(cache: cache), killedAfter: 300)
    }

    /// The flat copies in `folder` (the files named like one).
    static func copies(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasPrefix(model + "-") && $0.hasSuffix(".flat") }.sorted()
    }

    /// What is done to a copy's leaves (the middle half of the file, all leaves in any format).
    enum Alteration: String, CaseIterable, CustomTestStringConvertible {
        /// Every leaf value doubled: plausible numbers, wrong points.
        case doubled
        /// Every leaf a NaN: points at no position (INT64_MIN once made whole).
        case notANumber

        var testDescription: String { rawValue }

        func apply(to data: inout Data) {
            let start = data.count / 4 / 4 * 4
            let end = data.count * 3 / 4 / 4 * 4
            data.withUnsafeMutableBytes { bytes in
                for offset in stride(from: start, to: end, by: 4) {
                    let value = bytes.load(fromByteOffset: offset, as: Float.self)
                    let altered: Float = self == .doubled ? value * 2 : .nan
                    bytes.storeBytes(of: altered, toByteOffset: offset, as: Float.self)
                }
            }
        }
    }

    @Test("an altered copy is never used: the landmarks are the model's, exit 0", arguments: Alteration.allCases)
    func alteredCopy(_ alteration: Alteration) throws {
        try TestSupport.withTemporaryFolder { root in
            let expected = try Self.analyze(cache: "")
            try #require(expected.status == 0, "\(expected.stderr)")
            let cache = root + "/cache"
            let made = try Self.analyze(cache: cache)
            try #require(made.status == 0 && made.stdout == expected.stdout, "\(made.stderr)")
            let copies = try Self.copies(in: cache)
            try #require(copies.count == 1, "\(copies)")
            let copy = URL(fileURLWithPath: cache + "/" + copies[0])
            var data = try Data(contentsOf: copy)
            alteration.apply(to: &data)
            try data.write(to: copy)

            let run = try Self.analyze(cache: cache)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == expected.stdout, "the altered copy's landmarks")
            #expect(!run.stdout.contains("-9223372036854775808") && !run.stdout.contains("e+18"), "INT64_MIN coordinates")
            let again = try Self.analyze(cache: cache)
            #expect(again.stdout == expected.stdout, "the copy made again")
        }
    }

    @Test("a copy cut short while a live track maps it: the run goes on from the model file, the same rows, exit 0")
    func truncatedWhileMapped() throws {
        try TestSupport.withTemporaryFolder { root in
            let cache = root + "/cache"
            try #require(try Self.analyze(cache: cache).status == 0)
            let copies = try Self.copies(in: cache)
            try #require(copies.count == 1, "\(copies)")
            let copy = cache + "/" + copies[0]
            let fromFile = try TestSupport.runProcess(
                try #require(TestSupport.executable), ["track", "--model-dir", TestData.models, LiveTrackTests.crossing],
                environment: Self.environment(cache: ""), killedAfter: 300)
            try #require(fromFile.status == 0, "\(fromFile.stderr)")
            let stream = try LiveTrackTests.transportStream(in: root)

            // A delay bound no frame reaches: every frame is analysed, as from the file.
            let live = try LiveRun("track", ["--max-delay", "600", "-"], environment: Self.environment(cache: cache))
            let bytes = try Data(contentsOf: URL(fileURLWithPath: stream))
            live.input.fileHandleForWriting.write(bytes.prefix(bytes.count / 2))
            let maps = "/proc/\(live.process.processIdentifier)/maps"
            live.wait {
                live.lines.count > 5 && ((try? String(contentsOfFile: maps, encoding: .utf8))?.contains(copy) ?? false)
            }
            #expect(live.lines.count > 5, "no rows while the stream is open: \(live.stderr)")
            try #require(truncate(copy, 4096) == 0, "truncate \(copy)")
            live.input.fileHandleForWriting.write(bytes.dropFirst(bytes.count / 2))
            try live.input.fileHandleForWriting.close()

            #expect(live.finish() == 0, "\(live.stderr)")
            #expect(live.process.terminationReason == .exit, "killed by signal \(live.process.terminationStatus)")
            let rows = live.lines.dropFirst().map { $0.split(separator: ",", maxSplits: 1).last.map(String.init) ?? "" }
            let expected = fromFile.stdoutLines.dropFirst().map {
                $0.split(separator: ",", maxSplits: 1).last.map(String.init) ?? ""
            }
            #expect(rows == expected, "the rows of the file without a cache")
            #expect(live.stderr.contains("facekit: the model cache \(copy) was cut short while in use"), "\(live.stderr)")
        }
    }

    @Test("every path to the model shares one copy; copies of another format and stale partial files are removed")
    func oneCopyPerModel() throws {
        try TestSupport.withTemporaryFolder { root in
            let cache = root + "/cache"
            try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: false)
            // What an earlier FaceKit left: a copy named after a model path, and a partial copy
            // of a run killed while writing, two hours ago.
            let stale = [
                Self.model + "-0123456789abcdef.flat", "." + Self.model + "-0123456789abcdef.flat.fedcba9876543210.tmp",
            ]
            for name in stale {
                let path = try TestSupport.makeFile(cache, name, contents: Data(repeating: 7, count: 4096))
                try FileManager.default.setAttributes(
                    [.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: path)
            }
            let landmarks = TestData.models + "/" + Self.model + ".dat"
            var outputs: [String] = []
            // Two folders of links to the models, and one holding a copy of the model file itself.
            for (index, copied) in [false, false, true].enumerated() {
                let folder = root + "/models-\(index)"
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
                for name in try FileManager.default.contentsOfDirectory(atPath: TestData.models) {
                    let path = folder + "/" + name
                    if copied && name == Self.model + ".dat" {
                        try FileManager.default.copyItem(atPath: landmarks, toPath: path)
                    } else {
                        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: TestData.models + "/" + name)
                    }
                }
                let run = try Self.analyze(cache: cache, models: folder)
                #expect(run.status == 0, "\(run.stderr)")
                outputs.append(run.stdout)
            }
            #expect(Set(outputs).count == 1, "the same landmarks from every path")
            let copies = try Self.copies(in: cache)
            #expect(copies.count == 1, "one copy for one model: \(copies)")
            let left = try FileManager.default.contentsOfDirectory(atPath: cache).filter { stale.contains($0) }
            #expect(left.isEmpty, "stale files kept: \(left)")
            var total = 0
            for name in try FileManager.default.contentsOfDirectory(atPath: cache) {
                total += (try FileManager.default.attributesOfItem(atPath: cache + "/" + name)[.size] as? Int) ?? 0
            }
            #expect(total < 70_000_000, "the cache holds \(total) bytes")
        }
    }
}
