import FaceKit
import FaceKitArguments
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether an output would replace or hide an input: the one check `analyze`, `track`, `merge`,
/// `annotate` and `report` make before anything is written.
///
/// A shell expands `facekit analyze --output *.jpg` (the table's name forgotten) to `--output
/// a.jpg b.jpg c.jpg`, and `--output photo.jpg photo.jpg` names an input outright: either way the
/// table would replace a photo. `track --summary F --output F` would replace the rows with the
/// summary, and `report --output photos photos` would skip every photo as an earlier report's
/// pictures.
///
/// ```swift
/// OutputOverlap.replacedInput(output: "a.jpg", among: ["a.jpg", "b.jpg"])   // "a.jpg"
/// OutputOverlap.folderProblem(input: "photos", outputFolder: "photos/", reason: "...")   // "The input 'photos' is ..."
/// ```
enum OutputOverlap {
    /// A regular file's device and inode, which tell whether two paths name the same file.
    struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64

        /// `nil` when nothing is at `path` (a symbolic link is followed) or it is not a regular
        /// file: a device or a pipe is written in place, never replaced, and `/dev/stdin` and
        /// `/dev/stdout` are one terminal in an interactive shell.
        init?(_ path: String) {
            var info = stat()
            guard FilePathEncoding.withFileSystemRepresentation(path, { stat($0, &info) }) == 0,
                (info.st_mode & S_IFMT) == S_IFREG
            else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// The inputs of a run, by file and by path, for ``input(namedBy:)``.
    struct Inputs {
        private var byIdentity: [FileIdentity: String] = [:]
        private var byPath: [String: String] = [:]

        /// `paths` as given; the first of several paths to one file names it.
        init(_ paths: [String]) {
            for path in paths {
                if let identity = FileIdentity(path), byIdentity[identity] == nil { byIdentity[identity] = path }
                let key = OutputOverlap.absolute(path)
                if byPath[key] == nil { byPath[key] = path }
            }
        }

        /// The input `output` would replace: the same regular file reached by any path (links
        /// followed, hard links too), or, for a file that is not there yet, the same path once made
        /// absolute. A device or a named pipe (`/dev/null` for both `--output` and `--summary`) is
        /// written in place, never replaced: `nil`.
        func input(namedBy output: String) -> String? {
            if let identity = FileIdentity(output) { return byIdentity[identity] }
            if FileManager.default.fileExists(atPath: output) { return nil }
            return byPath[OutputOverlap.absolute(output)]
        }
    }

    /// The one of `inputs` that the file `output` would replace (``Inputs/input(namedBy:)``), or
    /// `nil`.
    static func replacedInput(output: String, among inputs: [String]) -> String? {
        Inputs(inputs).input(namedBy: output)
    }

    /// The usage error for `--<option> <output>`, a table, when it would replace one of `inputs`
    /// (``replacedInput(output:among:)``), or when it is an existing photo or video by its
    /// extension (`--output *.jpg` expanded by the shell names a photo that is not among the
    /// inputs left); `nil` when the output replaces nothing the command reads.
    static func tableProblem(option: String, output: String, inputs: [String]) -> String? {
        let shown = "'--\(option) \(MessageText.escaped(output))'"
        if let input = replacedInput(output: output, among: inputs) {
            let which = input == output ? "" : " (\(MessageText.escaped(input)))"
            return "\(shown) is one of the inputs\(which): the table would replace it; give the table a file of its own"
        }
        let media = ImageFileWalker.imageExtensions.union(ImageFileWalker.videoExtensions)
        if ImageFileWalker.hasExtension(output, in: media), FileIdentity(output) != nil {
            return "\(shown) is an existing photo or video, which the table would replace (a shell expands "
                + "'--\(option) *.jpg' to its first match): give the table a file of its own, such as faces.csv"
        }
        return nil
    }

    /// Why writing into `outputFolder` would hide `input`, or `nil` when it would not: `input` is
    /// the output folder itself (given twice, as in `--output out out`), or a folder inside it,
    /// whose images `annotate` and `report` skip as copies of an earlier run (`reason` says what
    /// that means for the command), or with `filesToo` any file inside it (`report` skips those
    /// named too; `annotate` copies them). Paths are compared with every symbolic link resolved.
    static func folderProblem(input: String, outputFolder: String, reason: String, filesToo: Bool = false) -> String? {
        let folder = AnnotationTarget.resolvingLinks(outputFolder)
        let resolved = AnnotationTarget.resolvingLinks(input)
        if resolved == folder {
            return "The input '\(input)' is the '--output <folder>' itself (\(outputFolder)): \(reason)"
        }
        let inside = resolved.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
        if inside, filesToo || ImageFileWalker.folderIdentity(input) != nil {
            return "The input '\(input)' is inside the '--output <folder>' (\(outputFolder)): \(reason)"
        }
        return nil
    }

    /// `path` made absolute from the current folder, `.` and `..` components and repeated slashes
    /// taken out (links are not resolved: the file need not exist).
    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
