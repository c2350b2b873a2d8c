import FaceKit
import FaceKitTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A model file that is not a regular file (a named pipe, a link to `/dev/zero`, a folder named
/// like the model), and a model cache whose folder is under a HOME that does not exist: the
/// built executable is run, with a memory limit and killed if it outlives a limit far beyond its
/// length, so that a run blocked on a pipe or reading `/dev/zero` until memory runs out fails its
/// test instead of hanging it or the machine.
@Suite("model files and the model cache", .needsModels)
struct ModelFileTests {
    /// What stands where the model should be.
    enum Impostor: String, CaseIterable, CustomTestStringConvertible {
        case namedPipe, linkToDevZero, folder

        var testDescription: String { rawValue }

        /// Makes it at `path`.
        func make(at path: String) throws {
            switch self {
            case .namedPipe: try #require(mkfifo(path, 0o644) == 0, "mkfifo \(path)")
            case .linkToDevZero: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
            case .folder: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            }
        }

        /// What the message says about it.
        var reason: String {
            switch self {
            case .namedPipe: "not a regular file (a named pipe)"
            case .linkToDevZero: "not a regular file (a character device)"
            case .folder: "it is a folder"
            }
        }
    }

    /// The models `analyze` reads with `arguments`.
    static let models: [(ModelLocator.Model, [String])] = [
        (.faceDetector, []), (.landmarks68, []), (.cnnFaceDetector, []), (.eyeState, ["--classify"]), (.smile, ["--classify"]),
        (.faceDescriptor, ["--descriptors", "--format", "jsonl"]),
    ]

    /// A model folder holding links to every model, but `impostor` at `model`'s name.
    static func modelFolder(in root: String, _ model: ModelLocator.Model, _ impostor: Impostor) throws -> String {
        let folder = root + "/models"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let bundled = TestData.repository.appendingPathComponent("Sources/FaceKit/BundledModels").path
        for other in ModelLocator.Model.allCases where other != model {
            let source = [bundled, TestData.models].map { $0 + "/" + other.rawValue }
                .first { FileManager.default.fileExists(atPath: $0) }
            guard let source else { continue }
            try FileManager.default.createSymbolicLink(atPath: folder + "/" + other.rawValue, withDestinationPath: source)
        }
        try impostor.make(at: folder + "/" + model.rawValue)
        return folder
    }

    @Test(
        "a model that is a named pipe, a link to /dev/zero or a folder is refused at once, naming it and why",
        arguments: models.map(\.0), Impostor.allCases)
    func impostor(_ model: ModelLocator.Model, _ impostor: Impostor) throws {
        let arguments = Self.models.first { $0.0 == model }!.1
        try TestSupport.withTemporaryFolder { root in
            let folder = try Self.modelFolder(in: root, model, impostor)
            // 1.5 GB of address space (a run needs under 1 GB): one reading /dev/zero until memory runs out stops there.
            let run = try TestSupport.runExecutableThroughShell(
                "ulimit -v 1500000; exec \"$0\" \"$@\"",
                ["analyze", "--model-dir", folder] + arguments + [TestSupport.astronaut], killedAfter: 120)
            let path = folder + "/" + model.rawValue
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stdout.isEmpty, "\(run.stdout)")
            #expect(run.stderr.contains("facekit: model \(path) unavailable: "), "\(run.stderr)")
            #expect(run.stderr.contains(impostor.reason), "\(run.stderr)")
            #expect(!run.stderr.contains("internal error"), "\(run.stderr)")
        }
    }

    @Test("eye_state.onnx and smile.onnx swapped (the same shapes) are refused by their graphs' names, nothing written")
    func swappedNetworks() throws {
        try TestSupport.withTemporaryFolder { root in
            let folder = root + "/models"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            let bundled = TestData.repository.appendingPathComponent("Sources/FaceKit/BundledModels").path
            for model in ModelLocator.Model.allCases {
                let source = [bundled, TestData.models].map { $0 + "/" + model.rawValue }
                    .first { FileManager.default.fileExists(atPath: $0) }
                guard let source else { continue }
                let swapped = [ModelLocator.Model.eyeState: ModelLocator.Model.smile, .smile: .eyeState][model]
                try FileManager.default.createSymbolicLink(
                    atPath: folder + "/" + (swapped ?? model).rawValue, withDestinationPath: source)
            }
            let run = try TestSupport.runExecutable(
                ["analyze", "--classify", "--model-dir", folder, TestSupport.astronaut], killedAfter: 300)
            let path = folder + "/eye_state.onnx"
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stdout.isEmpty, "\(run.stdout)")
            #expect(
                run.stderrLines == [
                    "facekit: model \(path) unavailable: \(path) is another network: its ONNX graph is named "
                        + "\"facekit_smile\", not \"facekit_eye_state\" (a retrained network must keep that name: "
                        + "docs/cli.md, \"Model files\")"
                ])
        }
    }

    @Test("a HOME that does not exist is not made for the model cache: the run goes on without one, silently")
    func missingHome() throws {
        try TestSupport.withTemporaryFolder { root in
            var environment = ProcessInfo.processInfo.environment
            for name in [ModelCache.environmentVariable, "XDG_CACHE_HOME"] { environment[name] = nil }
            environment["HOME"] = root + "/missing/home"
            let run = try TestSupport.runProcess(
                try #require(TestSupport.executable),
                ["analyze", "--model-dir", TestData.models, TestSupport.astronaut], environment: environment,
                killedAfter: 300)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.isEmpty, "\(run.stderr)")
            #expect(run.stdout == TestSupport.analyze([TestSupport.astronaut]).stdout)
            #expect(!FileManager.default.fileExists(atPath: root + "/missing"), "the missing HOME was made")
        }
    }
}
