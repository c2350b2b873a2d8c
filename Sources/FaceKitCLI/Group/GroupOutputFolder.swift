import FaceKit
import FaceKitArguments

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `--output` folder of `facekit group`, made if missing (with its parents); each file in it
/// is written whole to a temporary file and renamed into place (``OutputFile``); one found to be a
/// device or a named pipe is refused.
struct GroupOutputFolder {
    static let facesFile = "faces.csv"
    static let peopleFile = "people.csv"

    let path: String

    init(path: String) throws(OutputError) {
        self.path = path
        try Self.makeFolder(path)
    }

    /// The path of `name` inside the folder.
    func file(_ name: String) -> String { path.hasSuffix("/") ? path + name : path + "/" + name }

    /// Writes `name` through `body`, in place only once complete.
    func write(_ name: String, _ body: (any TextOutput) throws -> Void) throws {
        let output = try OutputFile(path: file(name), specialFiles: .refused)
        try body(output)
        try output.commit()
    }

    /// Makes `path` and any missing parent folder; fine when it is already a folder.
    static func makeFolder(_ path: String) throws(OutputError) {
        var isFolder = stat()
        if FilePathEncoding.withFileSystemRepresentation(path, { stat($0, &isFolder) }) == 0 {
            guard (isFolder.st_mode & S_IFMT) == S_IFDIR else {
                throw OutputError("\(path): cannot write output: it is a file, not a folder")
            }
            return
        }
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        if let slash = trimmed.lastIndex(of: "/"), slash != trimmed.startIndex {
            try makeFolder(String(trimmed[..<slash]))
        }
        let code = FilePathEncoding.withFileSystemRepresentation(path) { mkdir($0, 0o777) == 0 ? 0 : errno }
        guard code == 0 || code == EEXIST else {
            throw OutputError("\(path): cannot make folder: \(String(cString: strerror(code)))")
        }
    }
}
