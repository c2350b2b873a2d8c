import Foundation

/// Finds FaceKit's model files.
///
/// A model is looked up, in order: an explicit path given for that model, the folder given to
/// ``init(directory:overrides:)``, the folder named by `FACEKIT_MODEL_DIR`, `.models` in the
/// current folder or in any folder above the running executable (where `scripts/setup` puts
/// dlib's models), the models built next to the executable (`FaceKit_FaceKit.resources`, where
/// SwiftPM copies the YuNet detector that ships with FaceKit), `../share/facekit` beside the
/// executable's folder (where `scripts/install` puts everything), `$XDG_DATA_HOME/facekit`
/// (default `~/.local/share/facekit`), then `/usr/share/dlib` and `/usr/local/share/dlib`.
///
/// FaceKit's own networks and YuNet ship in its resource bundle, so a program that depends on the
/// library finds them with nothing to do. dlib's models cannot ship in the package: Debian's
/// libdlib-data puts the 68-point model in `/usr/share/dlib`, and `scripts/fetch-models` puts all
/// of them in `~/.local/share/facekit`, the one step a program needs for photos (dlib's CNN) and
/// for re-identification.
/// A model found nowhere is an error that names it, the folders searched and that step.
///
/// ```swift
/// let locator = ModelLocator(directory: "/opt/models")
/// try locator.path(for: .landmarks68)   // "/opt/models/shape_predictor_68_face_landmarks.dat"
/// ```
public struct ModelLocator: Sendable {
    /// The models FaceKit uses, by file name.
    public enum Model: String, Sendable, CaseIterable {
        /// The YuNet face detector (ONNX, Apache-2.0). Shipped with FaceKit.
        case faceDetector = "yunet_n_320_320.onnx"
        /// FaceKit's eye-state network (ONNX, trained by scripts/train-eye-model). Shipped with FaceKit.
        case eyeState = "eye_state.onnx"
        /// FaceKit's smile network (ONNX, trained by scripts/train-smile-model). Shipped with FaceKit.
        case smile = "smile.onnx"
        /// dlib's MMOD CNN face detector: a photo detector's third look at a face YuNet doubts
        /// (not needed with tracking). From face_recognition_models.
        case cnnFaceDetector = "mmod_human_face_detector.dat"
        /// dlib's 68-point shape predictor, trained on iBUG 300-W: non-commercial use only.
        case landmarks68 = "shape_predictor_68_face_landmarks.dat"
        /// dlib's ResNet face descriptor (tracking re-identification).
        case faceDescriptor = "dlib_face_recognition_resnet_model_v1.dat"
    }

    public static let environmentVariable = "FACEKIT_MODEL_DIR"

    /// Explicit paths that win over every folder.
    public var overrides: [Model: String]
    /// Where copies of models that load faster are kept (``ModelCache``).
    package var cache = ModelCache.standard
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
        if let executableFolder = Self.executableFolder {
            folders.append(executableFolder.appendingPathComponent("FaceKit_FaceKit.resources/BundledModels").path)
            folders.append(executableFolder.deletingLastPathComponent().appendingPathComponent("share/facekit").path)
        }
        folders.append(Self.userDataFolder)
        folders += ["/usr/share/dlib", "/usr/local/share/dlib"]
        var seen = Set<String>()
        searchPath = folders.filter { seen.insert($0).inserted }
    }

    /// A locator that searches `searchPath` alone, in order: for tests of a model missing
    /// everywhere, whatever this machine has installed.
    init(searchPath: [String], overrides: [Model: String] = [:]) {
        self.overrides = overrides
        self.searchPath = searchPath
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
            reason: "not found in \(searchPath.joined(separator: ", ")); \(Self.remedy(for: model))")
    }

    /// The one step that makes `model` found, for ``path(for:)``'s error.
    static func remedy(for model: Model) -> String {
        switch model {
        case .faceDetector, .eyeState, .smile:
            "it ships with FaceKit, in the resource bundle FaceKit_FaceKit.resources that the build puts beside "
                + "the executable: keep that folder beside the executable when copying it "
                + "(scripts/install puts the models in <prefix>/share/facekit instead)"
        case .landmarks68, .faceDescriptor, .cnnFaceDetector:
            "fetch it with FaceKit's scripts/fetch-models (in a package that depends on FaceKit: "
                + ".build/checkouts/FaceKit/scripts/fetch-models), which puts dlib's models in "
                + "\(userDataFolder), or set \(environmentVariable) to a folder that holds it"
        }
    }

    /// The folder of the running executable, symbolic links resolved.
    private static var executableFolder: URL? {
        Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// `$XDG_DATA_HOME/facekit`, or `~/.local/share/facekit` when it is unset, as the XDG Base
    /// Directory specification says: where `scripts/fetch-models` puts dlib's models.
    static var userDataFolder: String {
        let environment = ProcessInfo.processInfo.environment
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/facekit" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/facekit"
    }

    private static func modelFoldersAboveExecutable() -> [String] {
        guard var folder = executableFolder else { return [] }
        var found: [String] = []
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent(".models").path
            if FileManager.default.fileExists(atPath: candidate) { found.append(candidate) }
            folder = folder.deletingLastPathComponent()
        }
        return found
    }
}
