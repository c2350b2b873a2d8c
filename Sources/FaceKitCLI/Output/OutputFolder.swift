import FaceKit
import FaceKitArguments

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An output folder the user named (`report`'s site, `group --output`, `annotate --output`) and
/// the folders FaceKit makes inside it for the files it names itself (`images/`, `crops/`, the
/// tree of annotated copies).
///
/// The folder itself is made with its parents where missing (``make(_:)``), and may be a
/// symbolic link: the user named it. What stands in the way is said in FaceKit's words:
/// `facekit: out/faces.csv: cannot make folder: it is a file, not a folder`. Inside it, nothing FaceKit writes goes through a symbolic link: FaceKit never
/// makes one there, so a link found in its place (`out/images -> /etc`) was put there by someone
/// else and would lead the writes out of the folder. Such a link is refused, naming it, rather
/// than followed or deleted; a file FaceKit names is checked the same way when it is opened
/// (``OutputTarget/SpecialFiles/refused``).
///
/// ```swift
/// let site = try OutputFolder("site")                      // site/ made if missing
/// try site.makeFolders(for: "trip/day1/a.jpg")           // "site/trip/day1/a.jpg"; trip/day1/ made
/// try OutputFolder.make("results/2026")                  // makes results/ and results/2026/
/// ```
struct OutputFolder {
    let root: String

    /// Makes `root` and any missing parent; fine when it is already a folder (or a link to one).
    init(_ root: String) throws(OutputError) {
        self.root = root
        try Self.make(root)
    }

    /// The path of `relative` below the folder.
    func path(_ relative: String) -> String { root.hasSuffix("/") ? root + relative : root + "/" + relative }

    /// Makes the folders on the way to the file `relative` (every component but the last) and
    /// returns its path; a component that is a symbolic link, or a file, is an error naming it.
    @discardableResult
    func makeFolders(for relative: String) throws(OutputError) -> String {
        var components = relative.split(separator: "/")
        components.removeLast()
        var folder = ""
        for component in components {
            folder += (folder.isEmpty ? "" : "/") + component
            try makeFolder(folder)
        }
        return path(relative)
    }

    /// Makes the folder `relative` (one component below a folder already made) where missing.
    func makeFolder(_ relative: String) throws(OutputError) {
        let folder = path(relative)
        let code = FilePathEncoding.withFileSystemRepresentation(folder) { name -> Int32 in
            if mkdir(name, 0o777) == 0 { return 0 }
            guard errno == EEXIST else { return errno }
            var info = stat()
            guard lstat(name, &info) == 0 else { return errno }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: return 0
            case S_IFLNK: return ELOOP
            default: return ENOTDIR
            }
        }
        switch code {
        case 0: return
        case ELOOP: throw OutputError("\(folder): cannot write output: \(Self.linkRefusal(in: root))")
        case ENOTDIR: throw OutputError("\(folder): cannot make folder: it is a file, not a folder")
        default: throw OutputError("\(folder): cannot make folder: \(systemErrorMessage(code))")
        }
    }

    /// Why a symbolic link inside an output folder is not written through.
    static func linkRefusal(in root: String? = nil) -> String {
        "a symbolic link inside the output folder\(root.map { " \($0)" } ?? ""), which could lead out of it; "
            + "FaceKit does not write through links it did not make: remove the link or choose another folder"
    }

    /// Makes `path` and any missing parent folder (`mkdir -p`, keeping bytes of names that are
    /// not UTF-8); fine when it is already a folder.
    static func make(_ path: String) throws(OutputError) {
        var info = stat()
        if FilePathEncoding.withFileSystemRepresentation(path, { stat($0, &info) }) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw OutputError("\(path): cannot make folder: it is a file, not a folder")
            }
            return
        }
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        if let slash = trimmed.lastIndex(of: "/"), slash != trimmed.startIndex {
            try make(String(trimmed[..<slash]))
        }
        let code = FilePathEncoding.withFileSystemRepresentation(path) { mkdir($0, 0o777) == 0 ? 0 : errno }
        guard code == 0 || code == EEXIST else {
            throw OutputError("\(path): cannot make folder: \(systemErrorMessage(code))")
        }
    }
}
