internal import CFaceKit
import Foundation

/// Writes frames into a new video file on FFmpeg's libavformat and libavcodec (`fk_video_writer`).
///
/// The container follows the path's extension (`.mp4`, `.mov`, `.mkv`, `.avi`, `.webm`, ...).
/// The codec is the first of `codecs` that FFmpeg can encode into that container, so the
/// default, H.264 (`avc1`) then MPEG-4 Part 2 (`mp4v`), works where FFmpeg has no H.264
/// encoder; ``codec`` tells which one was taken. No audio is written. Every frame must have the
/// size given at creation. Call ``finish()`` to complete the file; a writer dropped without it
/// completes the file too but cannot report a failure. Not thread-safe.
///
/// ```swift
/// let writer = try VideoWriter(path: "out.mp4", framesPerSecond: 25, width: 640, height: 360)
/// for frame in frames { try writer.write(frame) }
/// try writer.finish()
/// writer.codec   // "avc1"
/// ```
package final class VideoWriter {
    /// H.264 first; MPEG-4 Part 2, which every FFmpeg build encodes, as the fallback.
    package static let defaultCodecs = ["avc1", "mp4v"]
    /// WebM holds only VP8/VP9 (and AV1) video.
    package static let webMCodecs = ["VP80", "VP90"]
    /// The narrowest and lowest frames that can be written, in pixels. The encoders keep colour
    /// at half resolution (4:2:0), so an odd width or height one pixel smaller
    /// (the last column or row is left out), and a side of 1 px would become 0.
    package static let minimumSide = 2

    package let path: String
    package let width: Int
    package let height: Int
    package let framesPerSecond: Double
    /// The four-character code of the codec in use.
    package let codec: String
    /// Frames written so far.
    package private(set) var frameCount = 0
    private let pointer: OpaquePointer

    /// Creates (or replaces) the file at `path` (which may hold bytes that are not UTF-8, as
    /// ``FilePathEncoding`` says); runs `fk_video_writer_create` with each of `codecs` in turn and
    /// throws the last failure when none can be used.
    package convenience init(
        path: String, framesPerSecond: Double, width: Int, height: Int, codecs: [String] = VideoWriter.defaultCodecs
    ) throws(FaceKitError) {
        try self.init(path: path, framesPerSecond: framesPerSecond, width: width, height: height, codecs: codecs) {
            candidate, created, error in
            FilePathEncoding.withFileSystemRepresentation(path) {
                fk_video_writer_create($0, candidate, framesPerSecond, Int32(width), Int32(height), &created, error)
            }
        }
    }

    /// Writes the file open for writing at `descriptor` (the caller keeps it, and closes it),
    /// whose container `path`'s extension tells; nothing is opened by name
    /// (`fk_video_writer_create_on_descriptor`), so a file made in a folder held open is the one
    /// written, whatever replaces the folder's path meanwhile.
    package convenience init(
        descriptor: Int32, path: String, framesPerSecond: Double, width: Int, height: Int,
        codecs: [String] = VideoWriter.defaultCodecs
    ) throws(FaceKitError) {
        try self.init(path: path, framesPerSecond: framesPerSecond, width: width, height: height, codecs: codecs) {
            candidate, created, error in
            FilePathEncoding.withFileSystemRepresentation(path) {
                fk_video_writer_create_on_descriptor(
                    descriptor, $0, candidate, framesPerSecond, Int32(width), Int32(height), &created, error)
            }
        }
    }

    /// Checks the arguments, then runs `create` with each of `codecs` in turn until one succeeds.
    private init(
        path: String, framesPerSecond: Double, width: Int, height: Int, codecs: [String],
        create: (String, inout OpaquePointer?, UnsafeMutablePointer<fk_error>?) -> Int32
    ) throws(FaceKitError) {
        guard !codecs.isEmpty, codecs.allSatisfy({ $0.utf8.count == 4 }) else {
            throw .invalidOption(name: "codecs", reason: "give one or more four-character codes such as avc1")
        }
        guard framesPerSecond.isFinite, framesPerSecond > 0, width > 0, height > 0 else {
            throw .invalidOption(
                name: "framesPerSecond",
                reason: "\(width)x\(height) at \(framesPerSecond) frames/s: sizes and rate must be positive")
        }
        guard width >= Self.minimumSide, height >= Self.minimumSide else {
            throw .invalidOption(name: "width", reason: Self.tooSmallReason(width: width, height: height))
        }
        var lastError: FaceKitError?
        for candidate in codecs {
            var created: OpaquePointer?
            do throws(FaceKitError) {
                try callNative(subject: path) { error in create(candidate, &created, error) }
                pointer = created!
                codec = candidate
                self.path = path
                self.width = width
                self.height = height
                self.framesPerSecond = framesPerSecond
                return
            } catch {
                lastError = error
            }
        }
        throw lastError!
    }

    deinit { fk_video_writer_free(pointer) }

    /// Why frames of this size cannot be written (see ``minimumSide``).
    package static func tooSmallReason(width: Int, height: Int) -> String {
        "frames of \(width)x\(height) px are too small to write as video: "
            + "the encoders keep colour at half resolution and need at least \(minimumSide) px each way"
    }

    /// Encodes `frame` as the next frame; runs `fk_video_writer_write`.
    package func write(_ frame: FaceImage) throws(FaceKitError) {
        guard frame.width == width, frame.height == height else {
            throw .invalidOption(
                name: "frame", reason: "a \(frame.width)x\(frame.height) frame in a \(width)x\(height) video")
        }
        try callNative(subject: path) { fk_video_writer_write(pointer, frame.handle.pointer, $0) }
        frameCount += 1
    }

    /// Flushes the encoder and completes the file; runs `fk_video_writer_finish`. Calling it
    /// again does nothing.
    package func finish() throws(FaceKitError) {
        try callNative(subject: path) { fk_video_writer_finish(pointer, $0) }
    }
}
