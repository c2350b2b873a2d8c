import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes `facekit annotate`'s output files so that a path holds either its previous content or
/// a complete new file: bytes go to a hidden temporary file in the same folder (``TemporaryFile``),
/// which is renamed into place once written.
///
/// ```swift
/// try AnnotationFileWriter.write(pngData, to: "out/a.png")
/// let temporary = try AnnotationFileWriter.temporaryPath(for: "out/clip.mp4")  // "out/.clip.mp4.123.tmp.mp4"
/// ```
enum AnnotationFileWriter {
    /// Creates the folders on the way to `path`'s folder.
    static func createFolder(for path: String) throws(OutputError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw OutputError("\(folder): cannot create output folder: \(reason(error))")
        }
    }

    /// Writes `data` to `path` atomically, creating its folder if needed.
    static func write(_ data: Data, to path: String) throws(OutputError) {
        try createFolder(for: path)
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
    /// into place.
    static func temporaryPath(for path: String) throws(OutputError) -> String {
        try createFolder(for: path)
        let ext = AnnotationTarget.fileExtension(path).map { "." + $0 } ?? ""
        let (temporary, descriptor) = try TemporaryFile.create(nextTo: path, suffix: ext)
        close(descriptor)
        return temporary
    }

    private static func reason(_ error: Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return systemErrorMessage(Int32(underlying.code))
        }
        return (error as NSError).localizedDescription
    }
}
