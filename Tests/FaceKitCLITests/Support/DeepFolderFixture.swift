import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A chain of folders in a temporary folder whose full path grows longer than `PATH_MAX`, with a
/// file at the bottom. It is made and removed through folder descriptors (`mkdirat`, `openat`,
/// `unlinkat`), since a path that long cannot be used whole.
///
/// ```
/// <root>/ddd…d/ddd…d/…/deep.png    (18 folders of 250-byte names: over 4500 bytes)
/// ```
struct DeepFolderFixture {
    static let name = String(repeating: "d", count: 250)
    static let levels = 18
    /// Linux's PATH_MAX, the size of the buffer a path must fit in with its NUL.
    static let pathMax = 4096

    let root: String

    /// Makes the chain below `root` and writes `contents` to `deep.png` at its bottom.
    init(root: String, contents: Data) throws {
        self.root = root
        var descriptors = [open(root, O_RDONLY | O_DIRECTORY)]
        defer { descriptors.forEach { close($0) } }
        for _ in 0..<Self.levels {
            try #require(mkdirat(descriptors.last!, Self.name, 0o755) == 0)
            descriptors.append(openat(descriptors.last!, Self.name, O_RDONLY | O_DIRECTORY))
            try #require(descriptors.last! >= 0)
        }
        let file = openat(descriptors.last!, "deep.png", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(file >= 0)
        defer { close(file) }
        try #require(contents.withUnsafeBytes { write(file, $0.baseAddress, $0.count) } == contents.count)
    }

    /// The folder at `depth` (1 is the first below the root).
    func folder(_ depth: Int) -> String {
        root + String(repeating: "/" + Self.name, count: depth)
    }

    /// The first folder of the chain whose path cannot be opened: `PATH_MAX` bytes or more.
    var firstTooLong: String {
        (1...Self.levels).map(folder).first { $0.utf8.count >= Self.pathMax }!
    }

    /// Removes the chain, deepest first.
    func remove() {
        var descriptors = [open(root, O_RDONLY | O_DIRECTORY)]
        for _ in 0..<Self.levels {
            let next = openat(descriptors.last!, Self.name, O_RDONLY | O_DIRECTORY)
            if next < 0 { break }
            descriptors.append(next)
        }
        unlinkat(descriptors.last!, "deep.png", 0)
        while descriptors.count > 1 {
            close(descriptors.removeLast())
            unlinkat(descriptors.last!, Self.name, AT_REMOVEDIR)
        }
        close(descriptors[0])
    }
}
