import FaceKit
import FaceKitArguments

/// The `--output` folder of `facekit group`, made if missing (with its parents); each file in it
/// is written whole to a temporary file and renamed into place (``OutputFile``); one found to be a
/// device or a named pipe is refused.
struct GroupOutputFolder {
    static let facesFile = "faces.csv"
    static let peopleFile = "people.csv"

    let path: String

    init(path: String) throws(OutputError) {
        self.path = path
        try OutputFolder.make(path)
    }

    /// The path of `name` inside the folder.
    func file(_ name: String) -> String { path.hasSuffix("/") ? path + name : path + "/" + name }

    /// Writes `name` through `body`, in place only once complete.
    func write(_ name: String, _ body: (any TextOutput) throws -> Void) throws {
        let output = try OutputFile(path: file(name), specialFiles: .refused)
        try body(output)
        try output.commit()
    }
}
