import Foundation
import Testing
import FaceKitTestSupport

@testable import FaceKit

/// The layout `scripts/install` makes: `facekit` in `<prefix>/bin`, its models in
/// `<prefix>/share/facekit`, run from an unrelated folder with no model settings.
@Suite("Installed layout", .enabled(if: TestSupport.modelsAvailable, TestSupport.modelsMissingMessage))
struct InstalledLayoutTests {
    @Test("a facekit in <prefix>/bin finds its models in <prefix>/share/facekit, from any folder")
    func modelsBesideTheBinary() throws {
        let built = try #require(TestSupport.executable, "the facekit executable was not built")
        try TestSupport.withTemporaryFolder { prefix in
            let share = prefix + "/share/facekit", elsewhere = prefix + "/elsewhere"
            for folder in [prefix + "/bin", share, elsewhere] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            let facekit = prefix + "/bin/facekit"
            try FileManager.default.copyItem(atPath: built, toPath: facekit)
            // No FACEKIT_MODEL_DIR, no .models above the binary or in the current folder.
            let environment = ["HOME": elsewhere, "PATH": "/usr/bin:/bin"]
            let video = TestData.repository.appendingPathComponent("TestVideos/crossing.mp4").path
            let arguments = ["track", "--quiet", "--end", "0.5", video]

            let bare = try TestSupport.runProcess(facekit, arguments, in: elsewhere, environment: environment)
            #expect(bare.status == 1)
            #expect(bare.stderr.contains(ModelLocator.Model.faceDetector.rawValue), "\(bare.stderr)")
            #expect(bare.stderr.contains(share), "the error lists \(share) among the folders searched: \(bare.stderr)")

            try FileManager.default.copyItem(
                atPath: TestData.repository.appendingPathComponent("Sources/FaceKit/BundledModels/yunet_n_320_320.onnx").path,
                toPath: share + "/yunet_n_320_320.onnx")
            for model in [ModelLocator.Model.landmarks68, .faceDescriptor] {
                try FileManager.default.copyItem(atPath: TestData.models + "/" + model.rawValue, toPath: share + "/" + model.rawValue)
            }
            let installed = try TestSupport.runProcess(facekit, arguments, in: elsewhere, environment: environment)
            #expect(installed.status == 0, "\(installed.stderr)")
            #expect(installed.stderr.isEmpty, "no note: re-identification is on")
            #expect(installed.stdoutLines.count > 10)

            // Without the descriptor model, track still runs and says why faces are not re-identified.
            try FileManager.default.removeItem(atPath: share + "/" + ModelLocator.Model.faceDescriptor.rawValue)
            let noDescriptor = try TestSupport.runProcess(facekit, arguments, in: elsewhere, environment: environment)
            #expect(noDescriptor.status == 0, "\(noDescriptor.stderr)")
            #expect(noDescriptor.stderr.contains("re-identification by appearance is off"), "\(noDescriptor.stderr)")
            #expect(noDescriptor.stderr.contains(ModelLocator.Model.faceDescriptor.rawValue), "\(noDescriptor.stderr)")
        }
    }
}
