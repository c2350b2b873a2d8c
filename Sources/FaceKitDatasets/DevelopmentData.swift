import FaceKit
import Foundation

/// Where the development data is: the labelled photos, videos and landmarks that facekit-train,
/// facekit-evaluate and the tests read, which are research-only and never in the repository.
///
/// The folder is `$FACEKIT_TEST_DATA` when that is set and not empty, else `../shared/data`
/// beside the source checkout this was built from. It is there when it holds the README.md that
/// describes it. The checkout is found from this file's path at build time, so the tools and
/// tests run from any folder; it also gives the models scripts/setup installs (`.models`).
///
/// ```swift
/// let data = DevelopmentData()                    // $FACEKIT_TEST_DATA or ../shared/data
/// data.isPresent                                  // true when README.md is there
/// data.path("photos/dlib-faces/testing.xml")      // "/work/shared/data/photos/dlib-faces/testing.xml"
/// ```
public struct DevelopmentData: Sendable, Equatable {
    /// The environment variable that names the folder instead of the default.
    public static let environmentVariable = "FACEKIT_TEST_DATA"

    /// The source checkout this module was built from (three folders above this file).
    public static let repository: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The checkout's `.models`, where scripts/setup installs dlib's models.
    public static let modelFolder: String = repository.appendingPathComponent(".models").path

    /// The models of ``modelFolder`` first, so that a tool built anywhere uses the checkout's.
    public static var models: ModelLocator { ModelLocator(directory: modelFolder) }

    /// The data folder.
    public let folder: URL

    /// The folder named by `environment`'s ``environmentVariable`` when set and not empty, else
    /// `../shared/data` beside ``repository``.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let path = environment[Self.environmentVariable], !path.isEmpty {
            folder = URL(fileURLWithPath: path)
        } else {
            folder = Self.repository.deletingLastPathComponent().appendingPathComponent("shared/data")
        }
    }

    /// The data in `folder`, as `--data <dir>` names it.
    public init(folder: URL) {
        self.folder = folder
    }

    /// Whether the folder holds the development data (its README.md).
    public var isPresent: Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("README.md").path)
    }

    /// Why the data cannot be used, `nil` when it can: `development data not found at <folder>
    /// (no README.md there)`.
    public var absenceReason: String? {
        isPresent ? nil : "development data not found at \(folder.path) (no README.md there)"
    }

    /// A file or folder in the data, `relativePath` as the data's README names it.
    public func url(_ relativePath: String) -> URL {
        folder.appendingPathComponent(relativePath)
    }

    /// ``url(_:)`` as a path.
    public func path(_ relativePath: String) -> String {
        url(relativePath).path
    }
}
