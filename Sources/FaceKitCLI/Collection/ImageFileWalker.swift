import FaceKit
import FaceKitArguments

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files the PATH arguments of `facekit analyze` (or the videos of `facekit track`) stand for,
/// as a lazy sequence in a fixed order: the walk order, which fixes the output order, `--shard`
/// and `--resume`.
///
/// A path that is not a folder is yielded as is, whatever its name, so a missing or misnamed file
/// is still attempted and reported. A folder is walked recursively, following symbolic links but
/// never entering the same folder twice within one argument (no loops; a folder reached twice is
/// walked where it is first reached in the walk order); it yields only files whose extension is
/// one of the walker's (case-insensitive; images unless told otherwise, ``videoExtensions`` for
/// `track`) and skips everything else quietly.
///
/// The walk order: the paths in the order given; inside a folder, its entries sorted by name in
/// byte order, a folder's name counting as if it ended in `/`, each folder walked where it sorts.
/// So the files found under one argument come exactly as `LC_ALL=C sort` would sort their paths
/// (`a/b.jpg` before `a/b/x.jpg` before `a/b0.jpg`), whatever the file system's own order. An
/// unreadable folder is yielded as a failure at its place, and so is a folder whose path is too
/// long to open (longer than `PATH_MAX`): nothing below it is skipped silently.
///
/// Paths are strings that keep every byte of a name, UTF-8 or not (see `FilePathEncoding`); they
/// sort by those bytes.
///
/// The walk is streamed: only the listings of the folders on the way down to the current file are
/// held (sorted names, one array per level), never the whole tree. Regular files are recognised
/// by the type `readdir` reports, without a `stat` each; folders, links and entries of unknown
/// type are `stat`ed relative to their folder's descriptor (`fstatat`).
///
/// ```swift
/// Array(ImageFileWalker(paths: ["photos/"]).map(\.path))   // ["photos/a.jpg", "photos/trip/b.PNG"]
/// ```
struct ImageFileWalker: Sequence, Sendable {
    /// Extensions OpenCV decodes that the walker takes from folders.
    static let imageExtensions = ImageFileNames.imageExtensions

    /// Extensions taken as videos, by `track` from folders and by `annotate` from any path.
    static let videoExtensions: Set<String> = ["mp4", "mov", "avi", "mkv", "m4v", "webm"]

    enum Entry: Equatable, Sendable {
        /// A file to analyse, named as it should appear in the `source` column.
        case file(String)
        /// A folder that could not be listed; `reason` is the system's message.
        case unreadableFolder(path: String, reason: String)

        var path: String {
            switch self {
            case .file(let path), .unreadableFolder(let path, _): path
            }
        }

        /// The line reported on standard error for an unreadable folder.
        var failureDescription: String? {
            guard case .unreadableFolder(let path, let reason) = self else { return nil }
            return "\(path): cannot read folder: \(reason)"
        }
    }

    /// The command line's paths, walked in this order.
    let paths: [String]
    /// The extensions (lower case) of the files taken from folders.
    let extensions: Set<String>

    init(paths: [String], extensions: Set<String> = imageExtensions) {
        self.paths = paths
        self.extensions = extensions
    }

    /// Whether a file name ends in an image extension, e.g. `IMG_1.JPG`; `.png` alone does not.
    static func isImageFileName(_ path: String) -> Bool { hasExtension(path, in: imageExtensions) }

    /// Whether a file name ends in one of `extensions`, in any case.
    static func hasExtension(_ path: String, in extensions: Set<String>) -> Bool {
        ImageFileNames.hasExtension(path, in: extensions)
    }

    /// The files one path stands for, all at once; see the type's description.
    static func expand(_ path: String) -> [Entry] {
        Array(ImageFileWalker(paths: [path]))
    }

    func makeIterator() -> Iterator { Iterator(paths: paths, extensions: extensions) }

    /// Walks depth-first, listing each folder when it is reached.
    struct Iterator: IteratorProtocol {
        private let paths: [String]
        private let extensions: Set<String>
        private var nextPath = 0
        /// The folders being walked, the innermost last.
        private var stack: [FolderListing] = []
        /// The folders entered under the current argument.
        private var visited: Set<FolderIdentity> = []

        init(paths: [String], extensions: Set<String>) {
            self.paths = paths
            self.extensions = extensions
        }

        mutating func next() -> Entry? {
            while true {
                if let top = stack.indices.last {
                    guard stack[top].next < stack[top].children.count else {
                        stack.removeLast()
                        continue
                    }
                    let child = stack[top].children[stack[top].next]
                    stack[top].next += 1
                    let path = stack[top].prefix + child.name
                    switch child.kind {
                    case .file:
                        return .file(path)
                    case .folder(let identity):
                        guard visited.insert(identity).inserted else { continue }
                        if let failure = enter(path) { return failure }
                    case .unreadableFolder(let code):
                        return .unreadableFolder(path: path, reason: systemErrorMessage(code))
                    }
                    continue
                }
                guard nextPath < paths.count else { return nil }
                let path = paths[nextPath]
                nextPath += 1
                visited = []
                guard let identity = ImageFileWalker.folderIdentity(path) else { return .file(path) }
                visited.insert(identity)
                if let failure = enter(path) { return failure }
            }
        }

        /// Lists `folder` onto the stack, or returns the failure to report when it cannot be read.
        private mutating func enter(_ folder: String) -> Entry? {
            switch FolderListing.read(folder, extensions: extensions) {
            case .success(let listing):
                stack.append(listing)
                return nil
            case .failure(let failure):
                return .unreadableFolder(path: folder, reason: systemErrorMessage(failure.code))
            }
        }
    }

    /// A folder's device and inode (``FolderIdentity``, in FaceKit).
    typealias FolderIdentity = FaceKit.FolderIdentity
    /// One folder's listing (``FolderListing``, in FaceKit, which reads known people's folders too).
    typealias FolderListing = FaceKit.FolderListing

    /// The device and inode of the folder at `path`, following links; `nil` when it is not a folder.
    static func folderIdentity(_ path: String) -> FolderIdentity? { FolderIdentity.identity(ofFolder: path) }
}
