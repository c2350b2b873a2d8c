#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Expands the PATH arguments of `facekit analyze` into the files to analyse.
///
/// A path that is not a folder is returned as is, whatever its name, so a missing or misnamed
/// file is still attempted and reported. A folder is walked recursively, following symbolic
/// links but never entering the same folder twice (no loops); it yields only files whose
/// extension is an image extension (case-insensitive) and skips everything else quietly. The
/// files of one folder come sorted by path (byte order), so output order is deterministic.
///
/// ```swift
/// ImageFileWalker.expand("photos/")   // [.file("photos/a.jpg"), .file("photos/trip/b.PNG")]
/// ```
public enum ImageFileWalker {
    /// Extensions OpenCV decodes that the walker takes from folders.
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "jpe", "png", "bmp", "dib", "tif", "tiff", "webp"]

    public enum Entry: Equatable, Sendable {
        /// A file to analyse, named as it should appear in the `source` column.
        case file(String)
        /// A folder that could not be listed; `reason` is the system's message.
        case unreadableFolder(path: String, reason: String)

        public var path: String {
            switch self {
            case .file(let path), .unreadableFolder(let path, _): path
            }
        }

        /// The line reported on standard error for an unreadable folder.
        public var failureDescription: String? {
            guard case .unreadableFolder(let path, let reason) = self else { return nil }
            return "\(path): cannot read folder: \(reason)"
        }
    }

    /// Whether a file name ends in an image extension, e.g. `IMG_1.JPG`; `.png` alone does not.
    public static func isImageFileName(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// The files `path` stands for; see the type's description.
    public static func expand(_ path: String) -> [Entry] {
        guard let identity = folderIdentity(path) else { return [.file(path)] }
        var visited: Set<FolderIdentity> = [identity]
        var entries: [Entry] = []
        walk(path, visited: &visited, into: &entries)
        return entries.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    private struct FolderIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// The folder's device and inode, following links; `nil` when `path` is not a folder.
    private static func folderIdentity(_ path: String) -> FolderIdentity? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return FolderIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    private static func walk(_ folder: String, visited: inout Set<FolderIdentity>, into entries: inout [Entry]) {
        guard let stream = opendir(folder) else {
            entries.append(.unreadableFolder(path: folder, reason: systemErrorMessage(errno)))
            return
        }
        defer { closedir(stream) }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(cString: $0)
                }
            }
            if name == "." || name == ".." { continue }
            let path = prefix + name
            if let identity = folderIdentity(path) {
                if visited.insert(identity).inserted { walk(path, visited: &visited, into: &entries) }
            } else if isImageFileName(name) {
                entries.append(.file(path))
            }
        }
    }
}
