import Foundation

/// Where FaceKit keeps copies of models that load faster than the files they come from.
///
/// Today one model has such a copy: the 68-point shape predictor, whose dlib file takes
/// 250-300 ms to parse and whose flat copy is mapped in about a millisecond (docs/benchmarks.md,
/// "Start-up"). A copy is named after the model file's absolute path and records the file's
/// size, inode and modification time, so a changed model is read again and its copy replaced; a
/// copy that cannot be read or written is ignored, and results are the same with or without one.
/// A copy is only ever replaced by a rename; one truncated in place while a process has it mapped
/// would end that process (SIGBUS), as with any mapped file.
///
/// The folder is `$FACEKIT_CACHE_DIR` (an empty value turns copies off), else
/// `$XDG_CACHE_HOME/facekit`, else `~/.cache/facekit`, as the XDG Base Directory specification
/// says; it is created when first needed (mode 0700, as the specification asks), but never
/// above its ``root``: a `HOME` that does not exist is not made (a service's `HOME=/nonexistent`
/// would otherwise get the whole path and a 66 MB file), and copies are then off, silently.
public struct ModelCache: Sendable, Equatable {
    public static let environmentVariable = "FACEKIT_CACHE_DIR"

    /// The folder copies are kept in; `nil`: no copies.
    public var folder: String?
    /// A folder that must already exist for copies to be kept: none of the folders on the way
    /// to ``folder`` down to it is made. `nil`: ``folder`` is made with every missing parent.
    public var root: String?

    public init(folder: String?, root: String? = nil) {
        self.folder = folder
        self.root = root
    }

    /// The folder the environment names (see the type's description).
    public static var standard: ModelCache { standard(environment: ProcessInfo.processInfo.environment) }

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

    /// The path of the copy of the model at `modelPath`, its folder created; `nil` when copies
    /// are off or the folder cannot be made.
    func copyPath(forModelAt modelPath: String) -> String? {
        guard let folder, Self.make(folder, below: root) else { return nil }
        let absolute = URL(fileURLWithPath: modelPath).standardizedFileURL.path
        let name = URL(fileURLWithPath: absolute).deletingPathExtension().lastPathComponent
        return folder + "/" + name + "-" + Self.digest(absolute) + ".flat"
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

    /// FNV-1a over the path's bytes: stable from run to run (Swift's Hasher is seeded anew in
    /// every process), and enough to tell model paths apart.
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
