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
/// which is renamed into place once written; a device, a named pipe or a symbolic link in the
/// output folder (as a copy or as a folder on the way to one) is refused, not written
/// (``OutputFolder``). Temporary files that an earlier, killed run left for the same path are
/// removed first.
///
/// ```swift
/// try AnnotationFileWriter.write(pngData, to: target)   // target.outputPath, e.g. "out/trip/a.png"
/// let temporary = try AnnotationFileWriter.temporaryFile(for: target)  // temporary.path: "out/.clip.mp4.123.tmp.mp4"
/// ```
enum AnnotationFileWriter {
    /// Makes the output folder and the folders below it on the way to `target`'s copy, and
    /// returns the copy's path.
    static func makeFolders(for target: AnnotationTarget) throws(OutputError) -> String {
        try OutputFolder(target.outputFolder).makeFolders(for: target.relativeOutput)
    }

    /// Writes `data` as `target`'s copy atomically (``OutputFile``), creating its folder if needed.
    static func write(_ data: Data, to target: AnnotationTarget) throws(OutputError) {
        let path = try makeFolders(for: target)
        TemporaryFile.removeStale(nextTo: path)
        let output = try OutputFile(path: path, specialFiles: .refused)
        output.write(bytes: [UInt8](data)[...])
        try output.commit()
    }

    /// A new, empty hidden file next to `target`'s copy whose name ends in its extension, so that
    /// a video muxer picks the container from it, renamed over the copy once complete
    /// (``finishVideo(_:)``). Its descriptor holds the file's lock, which marks it as in use:
    /// close it once the file is renamed or removed.
    static func temporaryFile(for target: AnnotationTarget) throws(OutputError) -> TemporaryFile {
        let path = try makeFolders(for: target)
        guard case .file(let replacing) = try OutputTarget(path: path, specialFiles: .refused) else {
            preconditionFailure("a refused special file is thrown")
        }
        let ext = AnnotationTarget.fileExtension(path).map { "." + $0 } ?? ""
        TemporaryFile.removeStale(nextTo: replacing, suffix: ext)
        return try TemporaryFile(for: replacing, suffix: ext)
    }

    /// Puts a video whose writer has finished into place, once it is on disk and reads back as
    /// a video: the muxer does not report a failed write (a full disk leaves an MP4 without its
    /// index), so the file is opened again; one that does not open is removed, not renamed.
    static func finishVideo(_ temporary: TemporaryFile) throws(OutputError) {
        // The lock's descriptor is on the file the muxer wrote: its fsync reports the muxer's lost writes.
        let code: Int32 = fsync(temporary.descriptor) == 0 ? 0 : errno
        if code == 0 {
            do {
                _ = try VideoReader(contentsOfFile: temporary.path)
            } catch {
                temporary.remove()
                throw OutputError(
                    "\(temporary.target): cannot write output: the written video does not read back (a full disk?)")
            }
        }
        try temporary.moveIntoPlace(error: code)
    }
}
