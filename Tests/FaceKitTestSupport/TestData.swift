import FaceKitDatasets
import Foundation
import Testing

/// Where the tests find their inputs: redistributable fixtures in the repo, the development data
/// (``DevelopmentData``: ../shared/data or $FACEKIT_TEST_DATA), and the model files that
/// scripts/setup installs.
public enum TestData {
    /// The repository's root folder.
    public static let repository: URL = DevelopmentData.repository

    /// A file in Tests/Fixtures.
    public static func fixture(_ name: String) -> String {
        repository.appendingPathComponent("Tests/Fixtures/\(name)").path
    }

    /// The development data, found as the tools find it.
    public static let developmentData = DevelopmentData()

    /// The development data folder (research-only photos, videos and labels).
    public static var shared: URL { developmentData.folder }

    /// A file in the development data folder.
    public static func shared(_ relativePath: String) -> String {
        developmentData.path(relativePath)
    }

    public static var hasSharedData: Bool { developmentData.isPresent }

    /// The folder scripts/setup fills with dlib models.
    public static let models: String = DevelopmentData.modelFolder

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
        .enabled(
            if: TestData.hasSharedData,
            "skipped: \(TestData.developmentData.absenceReason ?? ""); set \(DevelopmentData.environmentVariable)")
    }

    /// Enables a test only when the dlib models are installed.
    public static var needsModels: Self {
        .enabled(if: TestData.hasModels, "skipped: dlib models not found in \(TestData.models); run scripts/setup")
    }
}
