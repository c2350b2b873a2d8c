import FaceKit
import Foundation
import FaceKitArguments

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes `facekit annotate`'s output files so that a path holds either its previous content or
/// a complete new file: bytes go to a hidden temporary file in the same folder (``TemporaryFile``),
/// which is renamed into place once written. Temporary files that an earlier, killed run left for
/// the same path are removed first.
///
/// ```swift
/// try AnnotationFileWriter.write(pngData, to: "out/a.png")
/// let (temporary, lock) = try AnnotationFileWriter.temporaryFile(for: "out/clip.mp4")  // "out/.clip.mp4.123.tmp.mp4"
/// ```
enum AnnotationFileWriter {
    /// Creates the folders on the way to `path`'s folder, as `mkdir -p` does, keeping bytes of
    /// their names that are not UTF-8 (FilePathEncoding).
    static func createFolder(for path: String) throws(OutputError) {
        guard let slash = path.lastIndex(of: "/") else { return }
        let folder = String(path[..<slash])
        var partial = path.hasPrefix("/") ? "/" : ""
        for component in folder.split(separator: "/") {
            if !partial.isEmpty && !partial.hasSuffix("/") { partial += "/" }
            partial += component
            let code = FilePathEncoding.withFileSystemRepresentation(partial) { name -> Int32 in
                if mkdir(name, 0o777) == 0 { return 0 }
                guard errno == EEXIST else { return errno }
                var info = stat()
                return stat(name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR ? 0 : ENOTDIR
            }
            if code != 0 { throw OutputError("\(partial): cannot create output folder: \(systemErrorMessage(code))") }
        }
    }

    /// Writes `data` to `path` atomically, creating its folder if needed.
    static func write(_ data: Data, to path: String) throws(OutputError) {
        try createFolder(for: path)
        TemporaryFile.removeStale(nextTo: path)
        let (temporary, descriptor) = try TemporaryFile.create(nextTo: path)
        var code: Int32 = 0
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                #if canImport(Glibc)
                    let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                #else
                    let written = Darwin.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    code = errno
                    return
                }
                offset += written
            }
        }
        if close(descriptor) != 0, code == 0 { code = errno }
        try TemporaryFile.rename(temporary, over: path, error: code)
    }

    /// A new, empty hidden file next to `path` whose name ends in `path`'s extension, so that a
    /// video muxer picks the container from it; ``TemporaryFile/rename(_:over:error:)`` puts it
    /// into place. The descriptor holds the file's lock, which marks it as in use: close it once
    /// the file is renamed or removed.
    static func temporaryFile(for path: String) throws(OutputError) -> (path: String, lock: Int32) {
        try createFolder(for: path)
        let ext = AnnotationTarget.fileExtension(path).map { "." + $0 } ?? ""
        TemporaryFile.removeStale(nextTo: path, suffix: ext)
        let (temporary, descriptor) = try TemporaryFile.create(nextTo: path, suffix: ext)
        return (temporary, descriptor)
    }
}
