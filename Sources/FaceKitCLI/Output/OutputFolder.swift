import FaceKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes the folders FaceKit writes into (group's and report's `--output`, the parents of an
/// `--output` file), with every missing parent, and says in the system's words which path
/// stood in the way: `facekit: out/faces.csv: cannot make folder: it is a file, not a folder`.
///
/// ```swift
/// try OutputFolder.make("results/2026")   // makes results/ and results/2026/; fine when they exist
/// ```
enum OutputFolder {
    /// Makes `path` and any missing parent folder; fine when it is already a folder.
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
            throw OutputError("\(path): cannot make folder: \(String(cString: strerror(code)))")
        }
    }
}
