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
/// says; it is created when first needed.
public struct ModelCache: Sendable, Equatable {
    public static let environmentVariable = "FACEKIT_CACHE_DIR"

    /// The folder copies are kept in; `nil`: no copies.
    public var folder: String?

    public init(folder: String?) {
        self.folder = folder
    }

    /// The folder the environment names (see the type's description).
    public static var standard: ModelCache {
        let environment = ProcessInfo.processInfo.environment
        if let chosen = environment[environmentVariable] { return ModelCache(folder: chosen.isEmpty ? nil : chosen) }
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return ModelCache(folder: cache + "/facekit") }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return ModelCache(folder: nil) }
        return ModelCache(folder: home + "/.cache/facekit")
    }

    /// The path of the copy of the model at `modelPath`, its folder created; `nil` when copies
    /// are off or the folder cannot be made.
    func copyPath(forModelAt modelPath: String) -> String? {
        guard let folder else { return nil }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            return nil
        }
        let absolute = URL(fileURLWithPath: modelPath).standardizedFileURL.path
        let name = URL(fileURLWithPath: absolute).deletingPathExtension().lastPathComponent
        return folder + "/" + name + "-" + Self.digest(absolute) + ".flat"
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
