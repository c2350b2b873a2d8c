import FaceKit
import FaceKitArguments

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a path named for an output is, and so how it is written (``OutputFile``). Nothing is
/// opened here.
///
/// - A regular file, or nothing yet, is a ``file(path:)``: written beside it and renamed over it
///   once complete (``TemporaryFile``). So is a symbolic link, to whatever it points (but a
///   folder): FaceKit never writes through a link at a name it writes, which someone else may
///   have planted there to lead the write elsewhere (as root, to any file); the complete file
///   replaces the link, and what it pointed to is left alone. A missing folder on the way to a
///   path the user named is made here (``OutputFolder/make(_:)``), the one thing this does to
///   the file system.
/// - `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N` and `/dev/stdin` are
///   ``inherited(_:)``: a copy of the process's own descriptor is written, so `--summary
///   /dev/stdout` goes where standard output goes, after what is already there (`>>` included),
///   as a shell user expects, and a file given as standard input is never replaced.
/// - Any other existing file that is not regular (`/dev/null`, `/dev/full`, a named pipe, not a
///   link to one) is ``special(path:)``: opened and written in place, so a device is never replaced by a regular
///   file and a named pipe's reader gets the output. Opening a pipe waits for its reader, as the
///   shell's `>` does. Files FaceKit names itself inside an output folder refuse them instead
///   (``SpecialFiles/refused``): nobody asked for them, and a pipe there would hang the run.
///   Those refuse a symbolic link too, which would lead the write out of the folder
///   (``OutputFolder``).
///
/// ```swift
/// try OutputTarget(path: "faces.csv")     // .file(path: "faces.csv")
/// try OutputTarget(path: "/dev/stdout")   // .inherited(1)
/// try OutputTarget(path: "/dev/null")     // .special(path: "/dev/null")
/// ```
enum OutputTarget: Equatable {
    case file(path: String)
    case inherited(Int32)
    case special(path: String)

    /// What an existing file that is not regular is, for a path that names an output.
    enum SpecialFiles {
        /// Written in place: a path the user named.
        case writtenInPlace
        /// An error, and so is a symbolic link: a path FaceKit made up inside an output folder.
        case refused
    }

    init(path: String, specialFiles: SpecialFiles = .writtenInPlace) throws(OutputError) {
        if specialFiles == .writtenInPlace, let inherited = Self.inheritedDescriptor(path) {
            self = .inherited(inherited)
            return
        }
        var info = stat()
        if FilePathEncoding.withFileSystemRepresentation(path, { lstat($0, &info) }) == 0,
            (info.st_mode & S_IFMT) == S_IFLNK
        {
            if specialFiles == .refused {
                throw OutputError("\(path): cannot write output: \(OutputFolder.linkRefusal())")
            }
            // A link to a folder is the mistake it was before links were replaced, not a file to replace.
            if FilePathEncoding.withFileSystemRepresentation(path, { stat($0, &info) }) == 0,
                (info.st_mode & S_IFMT) == S_IFDIR
            {
                throw OutputError("\(path): cannot write output: it is a folder")
            }
            self = .file(path: path)
            return
        }
        let found = FilePathEncoding.withFileSystemRepresentation(path) { stat($0, &info) == 0 ? 0 : errno }
        guard found == 0 else {
            // Nothing there yet (or nothing reachable): creating the file says why if it cannot.
            // A path the user named gets its missing folders (`--output results/faces-2.csv`), as
            // group's and report's folders do; those FaceKit names are made by OutputFolder.
            if specialFiles == .writtenInPlace, found == ENOENT || found == ENOTDIR,
                let parent = Self.parentFolder(path)
            {
                try OutputFolder.make(parent)
            }
            self = .file(path: path)
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            self = .file(path: path)
        case S_IFDIR:
            throw OutputError("\(path): cannot write output: it is a folder")
        default:
            if specialFiles == .refused {
                throw OutputError("\(path): cannot write output: \(RegularFile.refusal(info.st_mode)!)")
            }
            self = .special(path: path)
        }
    }

    /// The folder `path` is in, `nil` for a name in the current folder.
    static func parentFolder(_ path: String) -> String? {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
        return String(path[..<slash])
    }

    /// The descriptor that `/dev/stdin`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or
    /// `/proc/self/fd/N` names.
    /// Opening one of those afresh would truncate a file standard output is redirected to, and
    /// renaming over it would replace `/dev/stdout` itself.
    static func inheritedDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdin": return 0
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                let number = path.dropFirst(prefix.count)
                guard !number.isEmpty, number.allSatisfy(\.isASCII), let descriptor = Int32(number) else { return nil }
                return descriptor
            }
            return nil
        }
    }
}
