import FaceKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The annotated copy of a video file or a live source, as `facekit annotate` writes it: frames go
/// to a hidden temporary file next to the copy (``AnnotationFileWriter``), which takes the copy's
/// place once finished and read back; until then the path keeps what it held. WebM copies are
/// VP8 or VP9, the others H.264 or MPEG-4 part 2, whichever the FFmpeg of OpenCV has.
///
/// Opening and finishing fail with an ``OutputError`` whose text is the line to report: it names
/// the input and says `not annotated`.
///
/// ```swift
/// let copy = try AnnotatedVideoCopy(target, framesPerSecond: 25, width: 640, height: 360)
/// try copy.write(frame)
/// try copy.finish()   // out/clip.mp4 now holds the copy
/// ```
final class AnnotatedVideoCopy {
    let target: AnnotationTarget
    /// Its descriptor holds the file's lock until it is renamed or removed (``deinit``).
    private let temporary: TemporaryFile
    private let writer: VideoWriter
    /// The copy's frame size: the input's as it opened.
    let width: Int
    let height: Int
    private(set) var framesWritten = 0
    /// Whether the file was put in place; if not, it is removed with this value.
    private var finished = false

    init(_ target: AnnotationTarget, framesPerSecond: Double, width: Int, height: Int) throws(OutputError) {
        guard width >= VideoWriter.minimumSide, height >= VideoWriter.minimumSide else {
            throw OutputError(
                "\(target.input): not annotated: its \(VideoWriter.tooSmallReason(width: width, height: height))")
        }
        self.target = target
        self.width = width
        self.height = height
        do {
            temporary = try AnnotationFileWriter.temporaryFile(for: target)
        } catch {
            throw OutputError("\(target.input): not annotated: \(error.description)")
        }
        do {
            let codecs =
                AnnotationTarget.fileExtension(target.outputPath) == "webm"
                ? VideoWriter.webMCodecs : VideoWriter.defaultCodecs
            // Written through the descriptor of the file made in the checked folder: a link put
            // in the folder's place meanwhile is never followed.
            writer = try VideoWriter(
                descriptor: temporary.descriptor, path: temporary.path, framesPerSecond: framesPerSecond, width: width,
                height: height, codecs: codecs)
        } catch {
            temporary.remove()
            close(temporary.descriptor)
            throw Self.writingError(error, target: target)
        }
    }

    deinit {
        if !finished { temporary.remove() }
        close(temporary.descriptor)
    }

    /// Appends a frame. Its failure is the writer's own: the frames before it stay, for ``finish()``.
    /// A frame of another size (a stream whose resolution changed on the way) is fitted into the
    /// copy's (``fitted(_:width:height:)``).
    func write(_ image: FaceImage) throws(FaceKitError) {
        try writer.write(image.width == width && image.height == height ? image : Self.fitted(image, width: width, height: height))
        framesWritten += 1
    }

    /// `image` scaled to fit `width` x `height` whole, its sides' ratio kept, and centred on black
    /// (bars above and below, or left and right, where the ratios differ): a video file has one
    /// frame size, and a stream that changes its resolution keeps its picture.
    static func fitted(_ image: FaceImage, width: Int, height: Int) throws(FaceKitError) -> FaceImage {
        let scale = min(Double(width) / Double(image.width), Double(height) / Double(image.height))
        let fitWidth = min(width, max(1, Int((Double(image.width) * scale).rounded())))
        let fitHeight = min(height, max(1, Int((Double(image.height) * scale).rounded())))
        let scaled = try image.resized(width: fitWidth, height: fitHeight).pixels(format: .bgr8)
        var canvas = [UInt8](repeating: 0, count: width * height * 3)
        let left = (width - fitWidth) / 2, top = (height - fitHeight) / 2
        for row in 0..<fitHeight {
            let from = row * fitWidth * 3, to = ((top + row) * width + left) * 3
            canvas.replaceSubrange(to..<to + fitWidth * 3, with: scaled[from..<from + fitWidth * 3])
        }
        let made = canvas.withUnsafeBytes { bytes in
            Result { () throws(FaceKitError) in
                try FaceImage(pixels: bytes, width: width, height: height, bytesPerRow: width * 3, format: .bgr8)
            }
        }
        return try made.get()
    }

    /// Finishes the file and puts it in the copy's place; on failure nothing replaces the copy.
    func finish() throws(OutputError) {
        do {
            try writer.finish()
        } catch {
            temporary.remove()
            throw Self.writingError(error, target: target)
        }
        do {
            try AnnotationFileWriter.finishVideo(temporary)
            finished = true
        } catch {
            throw OutputError("\(target.input): not annotated: \(error.description)")
        }
    }

    /// Removes what was written: the copy keeps what it held. A copy neither finished nor
    /// discarded is removed when it goes.
    func discard() {
        temporary.remove()
    }

    /// An unwritable file is named by the copy it stands for, not its hidden temporary name.
    private static func writingError(_ error: FaceKitError, target: AnnotationTarget) -> OutputError {
        if case .unwritableFile(_, let reason) = error {
            return OutputError("\(target.input): not annotated: cannot write \(target.outputPath): \(reason)")
        }
        return OutputError("\(target.input): not annotated: \(error.description)")
    }
}
