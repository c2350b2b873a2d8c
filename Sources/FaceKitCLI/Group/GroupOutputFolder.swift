import FaceKit
import FaceKitArguments

/// The `--output` folder of `facekit group`, made if missing (with its parents); each file in it
/// is written whole to a temporary file and renamed into place (``OutputFile``); one found to be a
/// device, a named pipe or a symbolic link is refused, and so is a link as `crops/` (``OutputFolder``).
struct GroupOutputFolder {
    static let facesFile = "faces.csv"
    static let peopleFile = "people.csv"

    let folder: OutputFolder
    var path: String { folder.root }

    init(path: String) throws(OutputError) {
        folder = try OutputFolder(path)
    }

    /// The path of `name` inside the folder.
    func file(_ name: String) -> String { folder.path(name) }

    /// Writes `name` through `body`, in place only once complete.
    func write(_ name: String, _ body: (any TextOutput) throws -> Void) throws {
        let output = try OutputFile(path: file(name), specialFiles: .refused)
        try body(output)
        try output.commit()
    }

    /// Makes the folder `name` inside, where missing, and returns its path.
    func makeFolder(_ name: String) throws(OutputError) -> String {
        try folder.makeFolder(name)
        return file(name)
    }
}
