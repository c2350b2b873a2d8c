import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file names FaceKit takes as images when it lists a folder: `facekit`'s walks of photo
/// folders, and the reference photos of a folder of known people
/// (``KnownPeople/read(folder:detector:tolerance:)``).
package enum ImageFileNames {
    /// Extensions OpenCV decodes that are taken from folders.
    package static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "png", "bmp", "dib", "tif", "tiff", "webp", "heic", "heif", "hif", "avif",
    ]

    /// Whether a file name ends in one of `extensions`, in any case; `.png` alone does not.
    package static func hasExtension(_ path: String, in extensions: Set<String>) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }
}

/// A folder's device and inode, which tell whether a folder was already walked.
package struct FolderIdentity: Hashable, Sendable {
    package var device: UInt64
    package var inode: UInt64

    /// The identity of what `info` describes; `nil` when it is not a folder.
    package init?(folder info: stat) {
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// The device and inode of the folder at `path`, following links; `nil` when it is not a folder.
    package static func identity(ofFolder path: String) -> FolderIdentity? {
        var info = stat()
        guard FilePathEncoding.withFileSystemRepresentation(path, { stat($0, &info) }) == 0 else { return nil }
        return FolderIdentity(folder: info)
    }
}

/// One folder's image files and subfolders, sorted in walk order, and how far the walk is.
package struct FolderListing {
    package enum Kind {
        case file
        case folder(FolderIdentity)
        /// A folder that cannot even be examined (`fstatat`'s `errno`), reported at its place.
        case unreadableFolder(Int32)
    }

    package struct Child {
        package var name: String
        package var kind: Kind
    }

    /// Why a folder could not be listed: `opendir`'s `errno`.
    package struct Failure: Error {
        package var code: Int32
    }

    /// The folder's path with one `/` after it.
    package var prefix: String
    package var children: [Child]
    /// The index of the next child to walk.
    package var next = 0

    /// Lists `folder`: files whose extension is one of `extensions`, every folder (links
    /// followed), nothing else.
    ///
    /// Entries are examined relative to the open folder (`fstatat` on its descriptor), never by
    /// their full path: a path longer than `PATH_MAX` cannot be `stat`ed, and a folder below
    /// such a path would be taken for a file that is not an image and skipped without a word.
    /// Such a folder is listed as a folder, and entering it (`opendir` of its path) fails with
    /// "File name too long", which is reported at its place.
    package static func read(_ folder: String, extensions: Set<String> = ImageFileNames.imageExtensions) -> Result<FolderListing, Failure> {
        let (opened, code) = FilePathEncoding.withFileSystemRepresentation(folder) { name in
            let stream = opendir(name)
            return (stream, stream == nil ? errno : 0)
        }
        guard let stream = opened else { return .failure(Failure(code: code)) }
        defer { closedir(stream) }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        var children: [Child] = []
        while let entry = readdir(stream) {
            // The name's bytes as they are: String(cString:) would replace bytes that are not UTF-8.
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                FilePathEncoding.string(fromPathBytes: raw.prefix { $0 != 0 })
            }
            if name == "." || name == ".." { continue }
            let type = entry.pointee.d_type
            // Only these can be (or lead to) a folder: a regular file is judged by its name alone.
            if type == UInt8(DT_DIR) || type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN) {
                var info = stat()
                let code = FilePathEncoding.withFileSystemRepresentation(name) {
                    fstatat(dirfd(stream), $0, &info, 0) == 0 ? 0 : errno
                }
                if code == 0, let identity = FolderIdentity(folder: info) {
                    children.append(Child(name: name, kind: .folder(identity)))
                    continue
                }
                // A link that leads nowhere is judged by its name, like a file; a folder is not skipped.
                if code != 0 && type == UInt8(DT_DIR) {
                    children.append(Child(name: name, kind: .unreadableFolder(code)))
                    continue
                }
            }
            if ImageFileNames.hasExtension(name, in: extensions) {
                children.append(Child(name: name, kind: .file))
            }
        }
        // A folder sorts as if its name ended in "/", so that b/x.jpg comes after b.jpg and before
        // b0.jpg, as in a sort of the full paths.
        let keyed = children.map { child -> (key: [UInt8], child: Child) in
            var key = FilePathEncoding.pathBytes(child.name)
            switch child.kind {
            case .folder, .unreadableFolder: key.append(UInt8(ascii: "/"))
            case .file: break
            }
            return (key, child)
        }
        let sorted = keyed.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.child)
        return .success(FolderListing(prefix: prefix, children: sorted))
    }
}
