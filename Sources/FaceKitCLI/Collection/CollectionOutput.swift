import FaceKitArguments

/// Where `facekit analyze --output` and `facekit track --output` write their rows.
///
/// A regular file (or a new one) goes through a ``ResumableFileOutput``: `FILE.partial`, the
/// journal, and a rename once complete. A device, a named pipe or `/dev/stdout`
/// (``OutputTarget/special(path:)``, ``OutputTarget/inherited(_:)``) is written in place like
/// standard output, with neither partial file nor journal, so there is nothing to resume.
enum CollectionOutput {
    case resumable(ResumableFileOutput)
    case stream(OutputFile)

    /// A regular file keeps its journal once complete: the record of what made it, which
    /// `--resume` compares with and `facekit merge` and `facekit status` read.
    init(path: String, resume: Bool) throws(OutputError) {
        let target = try OutputTarget(path: path)
        if case .file(let file) = target {
            self = .resumable(try ResumableFileOutput(path: file, keepsJournal: true))
            return
        }
        guard !resume else {
            throw OutputError("\(path): cannot resume: it is not a regular file, so it keeps no run to continue")
        }
        self = .stream(try OutputFile(path: path, target: target))
    }

    var resumable: ResumableFileOutput? {
        if case .resumable(let file) = self { file } else { nil }
    }

    var stream: OutputFile? {
        if case .stream(let file) = self { file } else { nil }
    }

    /// Where the rows are written.
    var rows: any TextOutput {
        switch self {
        case .resumable(let file): file
        case .stream(let file): file
        }
    }
}
