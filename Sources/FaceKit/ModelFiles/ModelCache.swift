import Foundation

/// Where FaceKit keeps copies of models that load faster than the files they come from.
///
/// Today one model has such a copy: the 68-point shape predictor, whose dlib file takes
/// 250-300 ms to parse and whose flat copy is mapped and checked in about 16 ms (docs/benchmarks.md,
/// "Start-up"). The native shim keeps the folder (`fk_shape_predictor_create`): one copy per model
/// content, named after the checksum of the model file, shared by every path to the same model,
/// and an index of the model files last seen, so that a start finds its copy without reading the
/// model; copies no remembered model file needs are removed. A copy is checked before use (its
/// checksum, every count and offset) and again as it is used (a copy cut short while mapped, or
/// placing points nowhere, sends the run back to the model file, with a message); results are the
/// same with or without one.
///
/// The folder is `$FACEKIT_CACHE_DIR` (an empty value turns copies off), else
/// `$XDG_CACHE_HOME/facekit`, else `~/.cache/facekit`, as the XDG Base Directory specification
/// says; it is created when first needed (mode 0700, as the specification asks), but never
/// above its ``root``: a `HOME` that does not exist is not made (a service's `HOME=/nonexistent`
/// would otherwise get the whole path and a 66 MB file), and copies are then off, silently.
///
/// A setting of the process, with `package` access: FaceKit and its executables use it, and a
/// program using the library moves or turns off the copies with `FACEKIT_CACHE_DIR`.
package struct ModelCache: Sendable, Equatable {
    package static let environmentVariable = "FACEKIT_CACHE_DIR"

    /// The folder copies are kept in; `nil`: no copies.
    package var folder: String?
    /// A folder that must already exist for copies to be kept: none of the folders on the way
    /// to ``folder`` down to it is made. `nil`: ``folder`` is made with every missing parent.
    package var root: String?

    package init(folder: String?, root: String? = nil) {
        self.folder = folder
        self.root = root
    }

    /// The folder the environment names (see the type's description).
    package static var standard: ModelCache { standard(environment: ProcessInfo.processInfo.environment) }

    /// The folder `environment` names: `$FACEKIT_CACHE_DIR` (made with its parents: the user
    /// chose it), else `$XDG_CACHE_HOME/facekit` (made below `$XDG_CACHE_HOME`'s parent), else
    /// `$HOME/.cache/facekit` (made below `$HOME`).
    static func standard(environment: [String: String]) -> ModelCache {
        if let chosen = environment[environmentVariable] { return ModelCache(folder: chosen.isEmpty ? nil : chosen) }
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            let trimmed = cache.count > 1 && cache.hasSuffix("/") ? String(cache.dropLast()) : cache
            let parent = (trimmed as NSString).deletingLastPathComponent
            return ModelCache(folder: trimmed + "/facekit", root: parent)
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return ModelCache(folder: nil) }
        return ModelCache(folder: home + "/.cache/facekit", root: home)
    }

    /// The folder, created when missing; `nil` when copies are off or the folder cannot be made.
    func madeFolder() -> String? {
        guard let folder, Self.make(folder, below: root) else { return nil }
        return folder
    }

    /// Makes `folder` and its missing parents (mode 0700), none of them `root` or above it,
    /// which must be a folder already; whether `folder` is then a folder.
    static func make(_ folder: String, below root: String?) -> Bool {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) { return isFolder.boolValue }
        // The folders to make are the prefixes of `folder` that end after `root`.
        var after = folder.startIndex
        if let root {
            let base = root.hasSuffix("/") ? String(root.dropLast()) : root
            guard folder.hasPrefix(base + "/"), FileManager.default.fileExists(atPath: base, isDirectory: &isFolder),
                isFolder.boolValue
            else { return false }
            after = folder.index(folder.startIndex, offsetBy: base.count)
        }
        let ends = folder.indices.filter { $0 > after && folder[$0] == "/" } + [folder.endIndex]
        for end in ends {
            let made = FilePathEncoding.withFileSystemRepresentation(String(folder[..<end])) {
                mkdir($0, 0o700) == 0 || errno == EEXIST
            }
            if !made { return false }
        }
        return FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue
    }
}
