import FaceKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One input of `facekit annotate` and the file its annotated copy goes to.
///
/// A file named on the command line goes to `<output>/<its name>`; a file found in a folder goes
/// to `<output>/<its path below that folder>`. Images keep their format when FaceKit can encode
/// it (PNG, JPEG, BMP, TIFF, WebP) and are written as JPEG with `.jpg` appended otherwise (HEIC,
/// no extension). Videos are recognised by their extension and keep it.
///
/// ```swift
/// AnnotationTarget(input: "trip/a.jpg", relativeOutput: "a.jpg", outputFolder: "out").outputPath   // "out/a.jpg"
/// AnnotationTarget.isVideoFileName("clip.MOV")                                                    // true
/// ```
struct AnnotationTarget: Equatable {
    /// Extensions taken as videos, any case; everything else is read as an image.
    static let videoExtensions = ImageFileWalker.videoExtensions

    var input: String
    /// The output's path below the output folder.
    var relativeOutput: String
    var outputFolder: String

    var isVideo: Bool { Self.isVideoFileName(input) }

    var outputPath: String {
        (outputFolder.hasSuffix("/") ? outputFolder : outputFolder + "/") + relativeOutput
    }

    /// The lower-cased extension of a path's last component, `nil` when it has none.
    static func fileExtension(_ path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        return ext.isEmpty ? nil : ext
    }

    static func isVideoFileName(_ path: String) -> Bool {
        fileExtension(path).map(videoExtensions.contains) ?? false
    }

    /// The format an image output is encoded in: its extension (``expand(_:outputFolder:)``
    /// makes it one FaceKit encodes).
    var imageFormat: String { Self.fileExtension(relativeOutput) ?? "jpg" }

    /// The targets for one command-line path: the path itself, or the images and videos found in
    /// a folder (as `facekit group` finds them: analyze's images, track's videos) except those
    /// inside the output folder, which are earlier runs' copies. A folder that cannot be read
    /// comes back as a failure.
    static func expand(_ path: String, outputFolder: String) -> [Result<AnnotationTarget, FailedInput>] {
        let folder = ImageFileWalker.folderIdentity(path) != nil
        let entries = Array(
            ImageFileWalker(paths: [path], extensions: ImageFileWalker.imageExtensions.union(videoExtensions)))
        let outputPrefix = resolvingLinks(outputFolder) + "/"
        return entries.compactMap { entry in
            if let failure = entry.failureDescription { return .failure(FailedInput(description: failure)) }
            if folder, resolvingLinks(entry.path).hasPrefix(outputPrefix) { return nil }
            var relative: String
            if folder, entry.path.hasPrefix(path) {
                relative = String(entry.path.dropFirst(path.count))
                while relative.hasPrefix("/") { relative.removeFirst() }
            } else {
                relative = entry.path.split(separator: "/").last.map(String.init) ?? entry.path
            }
            var target = AnnotationTarget(input: entry.path, relativeOutput: relative, outputFolder: outputFolder)
            if !target.isVideo, fileExtension(relative).map(FaceImage.encodableFileExtensions.contains) != true {
                target.relativeOutput += ".jpg"
            }
            return .success(target)
        }
    }

    /// `path` made absolute with every symbolic link resolved (`realpath`); as given when it cannot
    /// be resolved (it does not exist yet). Bytes that are not UTF-8 are kept (FilePathEncoding).
    static func resolvingLinks(_ path: String) -> String {
        guard let resolved = FilePathEncoding.withFileSystemRepresentation(path, { realpath($0, nil) }) else {
            return URL(fileURLWithPath: path).standardizedFileURL.path
        }
        defer { free(resolved) }
        return FilePathEncoding.string(fromPathBytes: UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
    }

    /// Why annotating `input` into `outputFolder` would write nothing, or `nil` when it would
    /// not: `input` is the output folder itself, or a folder inside it, whose images
    /// ``expand(_:outputFolder:)`` skips as copies of an earlier run (``OutputOverlap/folderProblem(input:outputFolder:reason:)``).
    static func outputFolderProblem(input: String, outputFolder: String) -> String? {
        OutputOverlap.folderProblem(
            input: input, outputFolder: outputFolder,
            reason: "annotate skips the images in its output folder (copies of an earlier run), so nothing would be "
                + "annotated")
    }

    /// Why the output may not be written, or `nil` when it may: it is one of the run's inputs,
    /// reached by any path (``OutputOverlap/Inputs``).
    func overwriteProblem(inputs: OutputOverlap.Inputs) -> String? {
        guard let owner = inputs.input(namedBy: outputPath) else { return nil }
        let what = owner == input ? "the input itself" : "the input \(owner)"
        return "\(input): not annotated: the output \(outputPath) is \(what); choose another --output folder"
    }
}
