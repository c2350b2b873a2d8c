import Foundation

/// Finds dlib's model files.
///
/// A model is looked up, in order: an explicit path given for that model, the folder given to
/// ``init(directory:)``, the folder named by `FACEKIT_MODEL_DIR`, `.models` in the current
/// folder or in any folder above the running executable (where `scripts/setup` puts them),
/// then `/usr/share/dlib` and `/usr/local/share/dlib`.
///
/// ```swift
/// let locator = ModelLocator(directory: "/opt/models")
/// try locator.path(for: .landmarks68)   // "/opt/models/shape_predictor_68_face_landmarks.dat"
/// ```
public struct ModelLocator: Sendable {
    /// The models FaceKit uses, by file name.
    public enum Model: String, Sendable, CaseIterable {
        /// dlib's MMOD CNN face detector (accurate mode). From face_recognition_models.
        case cnnFaceDetector = "mmod_human_face_detector.dat"
        /// dlib's 68-point shape predictor, trained on iBUG 300-W: non-commercial use only.
        case landmarks68 = "shape_predictor_68_face_landmarks.dat"
        /// dlib's ResNet face descriptor (tracking re-identification).
        case faceDescriptor = "dlib_face_recognition_resnet_model_v1.dat"
    }

    public static let environmentVariable = "FACEKIT_MODEL_DIR"

    /// Explicit paths that win over every folder.
    public var overrides: [Model: String]
    /// Folders searched in order.
    public let searchPath: [String]

    public init(directory: String? = nil, overrides: [Model: String] = [:]) {
        self.overrides = overrides
        var folders: [String] = []
        if let directory { folders.append(directory) }
        if let fromEnvironment = ProcessInfo.processInfo.environment[Self.environmentVariable], !fromEnvironment.isEmpty {
            folders.append(fromEnvironment)
        }
        folders.append(FileManager.default.currentDirectoryPath + "/.models")
        folders += Self.modelFoldersAboveExecutable()
        folders += ["/usr/share/dlib", "/usr/local/share/dlib"]
        var seen = Set<String>()
        searchPath = folders.filter { seen.insert($0).inserted }
    }

    /// The path of `model`, or ``FaceKitError/modelUnavailable(name:reason:)`` saying where it
    /// was looked for and how to get it.
    public func path(for model: Model) throws(FaceKitError) -> String {
        if let explicit = overrides[model] {
            guard FileManager.default.isReadableFile(atPath: explicit) else {
                throw .modelUnavailable(name: model.rawValue, reason: "cannot read \(explicit)")
            }
            return explicit
        }
        for folder in searchPath {
            let candidate = folder + "/" + model.rawValue
            if FileManager.default.isReadableFile(atPath: candidate) { return candidate }
        }
        throw .modelUnavailable(
            name: model.rawValue,
            reason: "not found in \(searchPath.joined(separator: ", ")); run scripts/setup to fetch it, "
                + "or set \(Self.environmentVariable) to the folder that holds it")
    }

    private static func modelFoldersAboveExecutable() -> [String] {
        guard let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return [] }
        var folder = executable.deletingLastPathComponent()
        var found: [String] = []
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent(".models").path
            if FileManager.default.fileExists(atPath: candidate) { found.append(candidate) }
            folder = folder.deletingLastPathComponent()
        }
        return found
    }
}
