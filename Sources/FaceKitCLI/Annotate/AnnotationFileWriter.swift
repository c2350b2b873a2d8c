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
/// which is renamed into place once written; a device or a named pipe in the output folder is
/// refused, not written. Temporary files that an earlier, killed run left for the same path are
/// removed first.
///
/// ```swift
/// try AnnotationFileWriter.write(pngData, to: "out/a.png")
/// let (temporary, lock, _) = try AnnotationFileWriter.temporaryFile(for: "out/clip.mp4")  // "out/.clip.mp4.123.tmp.mp4"
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

    /// Writes `data` to `path` atomically (``OutputFile``), creating its folder if needed.
    static func write(_ data: Data, to path: String) throws(OutputError) {
        try createFolder(for: path)
        TemporaryFile.removeStale(nextTo: path)
        let output = try OutputFile(path: path, specialFiles: .refused)
        output.write(bytes: [UInt8](data)[...])
        try output.commit()
    }

    /// A new, empty hidden file next to `path` (next to the file it links to, for a link) whose
    /// name ends in `path`'s extension, so that a video muxer picks the container from it, and
    /// the file to rename it over once complete (``finishVideo(_:lock:over:)``). The descriptor
    /// holds the file's lock, which marks it as in use: close it once the file is renamed or
    /// removed.
    static func temporaryFile(for path: String) throws(OutputError) -> (path: String, lock: Int32, replacing: String) {
        try createFolder(for: path)
        guard case .file(let replacing) = try OutputTarget(path: path, specialFiles: .refused) else {
            preconditionFailure("a refused special file is thrown")
        }
        let ext = AnnotationTarget.fileExtension(path).map { "." + $0 } ?? ""
        TemporaryFile.removeStale(nextTo: replacing, suffix: ext)
        let (temporary, descriptor) = try TemporaryFile.create(nextTo: replacing, suffix: ext)
        return (temporary, descriptor, replacing)
    }

    /// Puts a video whose writer has finished into place, once it is on disk and reads back as
    /// a video: the muxer does not report a failed write (a full disk leaves an MP4 without its
    /// index), so the file is opened again; one that does not open is removed, not renamed.
    static func finishVideo(_ temporary: String, lock: Int32, over path: String) throws(OutputError) {
        // The lock's descriptor is on the file the muxer wrote: its fsync reports the muxer's lost writes.
        let code: Int32 = fsync(lock) == 0 ? 0 : errno
        if code == 0 {
            do {
                _ = try VideoReader(contentsOfFile: temporary)
            } catch {
                TemporaryFile.removeFile(temporary)
                throw OutputError("\(path): cannot write output: the written video does not read back (a full disk?)")
            }
        }
        try TemporaryFile.rename(temporary, over: path, error: code)
    }
}
