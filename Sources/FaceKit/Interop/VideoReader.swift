import Foundation
internal import CFaceKit

/// Reads a video file frame by frame through OpenCV's FFmpeg backend (`fk_video`).
///
/// Frames come out upright (rotation metadata applied where the backend exposes it). Skipping a
/// frame without decoding it is much cheaper than reading it, which `--every N` relies on.
/// Not thread-safe: read a video from one thread.
///
/// ```swift
/// let video = try VideoReader(contentsOfFile: "clip.mp4")
/// while let frame = try video.next() { print(frame.index, frame.timestampMs) }
/// ```
public final class VideoReader {
    /// One frame: its 0-based index, presentation time and, when decoded, its image.
    public struct Frame: Sendable {
        public var index: Int
        public var timestampMs: Double
        public var image: FaceImage?
    }

    public let path: String
    /// Size of the upright frames.
    public let width: Int
    public let height: Int
    /// Frames per second as the container declares them; 0 when unknown.
    public let framesPerSecond: Double
    /// Number of frames the container declares; an estimate, 0 when unknown.
    public let declaredFrameCount: Int
    /// Index of the last frame read, -1 before the first.
    public private(set) var lastIndex = -1

    private let pointer: OpaquePointer

    /// Opens the video; `path` may hold bytes that are not UTF-8 as ``FilePathEncoding`` says.
    /// Runs `fk_video_open`, then `fk_video_get_info` (closing the video again when that fails).
    public convenience init(contentsOfFile path: String) throws(FaceKitError) {
        try self.init(contentsOfFile: path, readingInfo: Self.nativeInfo)
    }

    /// ``init(contentsOfFile:)`` with the call that reads the opened video's size and rate
    /// given, so that tests can make it fail.
    init(
        contentsOfFile path: String,
        readingInfo readInfo: (_ video: OpaquePointer, _ path: String) throws(FaceKitError) -> fk_video_info
    ) throws(FaceKitError) {
        var opened: OpaquePointer?
        try callNative(subject: path) { error in
            FilePathEncoding.withFileSystemRepresentation(path) { fk_video_open($0, &opened, error) }
        }
        let info: fk_video_info
        do {
            info = try readInfo(opened!, path)
        } catch {
            // deinit runs only for a fully initialised object: release the handle here.
            fk_video_free(opened)
            throw error
        }
        pointer = opened!
        self.path = path
        width = Int(info.width)
        height = Int(info.height)
        framesPerSecond = info.fps
        declaredFrameCount = Int(info.frame_count)
    }

    deinit { fk_video_free(pointer) }

    /// Runs `fk_video_get_info`.
    private static func nativeInfo(of video: OpaquePointer, path: String) throws(FaceKitError) -> fk_video_info {
        var info = fk_video_info()
        try callNative(subject: path) { fk_video_get_info(video, &info, $0) }
        return info
    }

    /// The next frame, decoded when `decode` is true; `nil` at the end of the stream or where the
    /// data stops decoding (see ``endedEarly``). Runs `fk_video_next`.
    public func next(decode: Bool = true) throws(FaceKitError) -> Frame? {
        var image: OpaquePointer?
        var index: Int64 = 0
        var timestamp = 0.0
        var ended: Int32 = 0
        try callNative(subject: path) { fk_video_next(pointer, decode ? 1 : 0, &image, &index, &timestamp, &ended, $0) }
        guard ended == 0 else { return nil }
        lastIndex = Int(index)
        let frame = try image.map { pointer throws(FaceKitError) in try FaceImage(taking: pointer, subject: path) }
        return Frame(index: Int(index), timestampMs: timestamp, image: frame)
    }

    /// True when reading stopped well before the declared frame count: the data stopped decoding
    /// (a truncated or damaged file). Containers' counts are estimates, so a few frames of
    /// shortfall (5, or 2%) are tolerated.
    public var endedEarly: Bool {
        declaredFrameCount > 0 && lastIndex + 1 < declaredFrameCount - max(5, declaredFrameCount / 50)
    }
}
