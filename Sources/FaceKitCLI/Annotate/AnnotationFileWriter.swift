import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes `facekit annotate`'s output files so that a path holds either its previous content or
/// a complete new file: bytes go to a hidden temporary file in the same folder, which is renamed
/// into place once written (as ``AtomicFileOutput`` does for tables).
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
        let (temporary, descriptor) = try createTemporary(for: path, suffix: "")
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
        try commit(temporary, to: path, error: code)
    }

    /// A new, empty hidden file next to `path` whose name ends in `path`'s extension, so that a
    /// video muxer picks the container from it; rename it into place with ``commit(_:to:error:)``.
    static func temporaryPath(for path: String) throws(OutputError) -> String {
        try createFolder(for: path)
        let ext = AnnotationTarget.fileExtension(path).map { "." + $0 } ?? ""
        let (temporary, descriptor) = try createTemporary(for: path, suffix: ext)
        close(descriptor)
        return temporary
    }

    /// Renames `temporary` over `path`, or removes it and reports `error` (an `errno`) when that
    /// is not 0 or the rename fails.
    static func commit(_ temporary: String, to path: String, error: Int32 = 0) throws(OutputError) {
        var code = error
        if code == 0, rename(temporary, path) != 0 { code = errno }
        if code != 0 {
            unlink(temporary)
            throw OutputError("\(path): cannot write output: \(systemErrorMessage(code))")
        }
    }

    private static func createTemporary(for path: String, suffix: String) throws(OutputError) -> (String, Int32) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        for _ in 0..<100 {
            let candidate = "\(folder).\(name).\(UInt32.random(in: 0...UInt32.max)).tmp\(suffix)"
            // 0666 filtered by the umask: the permissions a plain `> file` would give.
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 { return (candidate, descriptor) }
            if errno != EEXIST { throw OutputError("\(path): cannot write output: \(systemErrorMessage(errno))") }
        }
        throw OutputError("\(path): cannot write output: no free temporary name")
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
