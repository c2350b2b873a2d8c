import Foundation
import Testing

/// Where the tests find their inputs: redistributable fixtures in the repo, the development data
/// in ../shared/data (or $FACEKIT_TEST_DATA), and the model files that scripts/setup installs.
public enum TestData {
    /// The repository's root folder.
    public static let repository: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A file in Tests/Fixtures.
    public static func fixture(_ name: String) -> String {
        repository.appendingPathComponent("Tests/Fixtures/\(name)").path
    }

    /// The development data folder (research-only photos, videos and labels).
    public static let shared: URL = {
        if let path = ProcessInfo.processInfo.environment["FACEKIT_TEST_DATA"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return repository.deletingLastPathComponent().appendingPathComponent("shared/data")
    }()

    /// A file in the development data folder.
    public static func shared(_ relativePath: String) -> String {
        shared.appendingPathComponent(relativePath).path
    }

    public static var hasSharedData: Bool {
        FileManager.default.fileExists(atPath: shared.appendingPathComponent("README.md").path)
    }

    /// The folder scripts/setup fills with dlib models.
    public static let models: String = repository.appendingPathComponent(".models").path

    public static var hasModels: Bool {
        [
            "mmod_human_face_detector.dat", "shape_predictor_68_face_landmarks.dat",
            "dlib_face_recognition_resnet_model_v1.dat",
        ].allSatisfy {
            FileManager.default.fileExists(atPath: models + "/" + $0)
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Enables a test only when ../shared/data is present.
    public static var needsSharedData: Self {
        .enabled(if: TestData.hasSharedData, "skipped: development data not found at \(TestData.shared.path) (set FACEKIT_TEST_DATA)")
    }

    /// Enables a test only when the dlib models are installed.
    public static var needsModels: Self {
        .enabled(if: TestData.hasModels, "skipped: dlib models not found in \(TestData.models); run scripts/setup")
    }
}
