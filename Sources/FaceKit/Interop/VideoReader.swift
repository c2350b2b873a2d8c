import Foundation
internal import CFaceKit

/// Reads a video file (or a live source) frame by frame on FFmpeg's libavformat and libavcodec
/// (`fk_video`).
///
/// Frames come out upright (quarter and half turns of the rotation metadata applied). Skipping a
/// frame without decoding it is much cheaper than reading it, which `--every N` relies on.
/// A reader is a `Sequence` of its decoded frames, read once: a `for` loop ends at the end of
/// the stream or at an error, which ``readingError`` then holds. Not thread-safe: read a video
/// from one thread (``Interruption`` ends a read from another).
///
/// ```swift
/// let video = try VideoReader(contentsOfFile: "clip.mp4")
/// for frame in video { print(frame.index, frame.timestampMs, frame.image!.width) }   // 0 0.0 640 ...
/// ```
public final class VideoReader {
    /// One frame: its 0-based index, presentation time and, when decoded, its image.
    public struct Frame: Sendable {
        public var index: Int
        public var timestampMs: Double
        public var image: FaceImage?
    }

    /// The file's path, or the live source as given (`-` for standard input).
    public let path: String
    /// Size of the upright frames as the stream opens. A stream may change its resolution on the
    /// way (MPEG-TS allows it; broadcast and adaptive streams do it): each ``Frame/image`` comes
    /// at its own size, and a change of size is not ``damage``.
    public let width: Int
    public let height: Int
    /// Frames per second as the container declares them; 0 when unknown.
    public let framesPerSecond: Double
    /// Number of frames the container declares; an estimate, 0 when unknown.
    public let declaredFrameCount: Int
    /// The container's duration in milliseconds (its edit lists applied); 0 when unknown.
    public let declaredDurationMs: Double
    /// The timestamp of the last frame read, 0 before the first.
    public private(set) var lastTimestampMs = 0.0
    /// Index of the last frame read, -1 before the first.
    public private(set) var lastIndex = -1
    /// The error that ended a `for` loop over the reader (``Iterator``), `nil` when the loop ran
    /// to the end of the stream.
    public fileprivate(set) var readingError: FaceKitError?

    private let pointer: OpaquePointer

    /// Where a live source comes from.
    public enum LiveSource: Sendable, Equatable {
        /// Standard input (any container FFmpeg reads from a pipe: MPEG-TS, Matroska, ...).
        case standardInput
        /// A stream URL, as FFmpeg opens it: `udp://`, `rtsp://`, `http(s)://`, ...
        case url(String)
        /// A V4L2 camera, `/dev/video*`.
        case device(String)

        /// How the source is named in messages and rows: `-` for standard input.
        public var name: String {
            switch self {
            case .standardInput: "-"
            case .url(let text), .device(let text): text
            }
        }
    }

    /// Why reading ended.
    public enum End: Sendable, Equatable {
        /// The data ended (or stopped decoding: see ``endedEarly``).
        case endOfStream
        /// A live source sent nothing for its timeout.
        case stalled
        /// ``Interruption/interrupt()`` was called.
        case interrupted
    }

    /// Opens the video; `path` may hold bytes that are not UTF-8 as `FilePathEncoding` says.
    /// Runs `fk_video_open`, then `fk_video_get_info` (closing the video again when that fails).
    /// Frames of more than `maxPixels` pixels are refused, as photos are
    /// (``FaceKitError/imageTooLarge(source:reason:)``), before one is decoded.
    public convenience init(contentsOfFile path: String, maxPixels: Int = FaceImage.defaultMaxPixels)
        throws(FaceKitError)
    {
        try self.init(contentsOfFile: path, maxPixels: maxPixels, readingInfo: Self.nativeInfo)
    }

    /// Opens a live source: frames come as the source sends them, timestamps are the stream's
    /// own, and a wait for the next frame longer than `timeoutMs` ends the stream (``end`` is
    /// then ``End/stalled``); opening a stream may take `openTimeoutMs`. Runs `fk_video_open_live`.
    /// `maxPixels` as for ``init(contentsOfFile:maxPixels:)``.
    public convenience init(
        liveSource source: LiveSource, timeoutMs: Int, openTimeoutMs: Int, maxPixels: Int = FaceImage.defaultMaxPixels
    ) throws(FaceKitError) {
        let kind: fk_live_kind
        switch source {
        case .standardInput: kind = FK_LIVE_STANDARD_INPUT
        case .url: kind = FK_LIVE_URL
        case .device: kind = FK_LIVE_DEVICE
        }
        let timeout = Int32(clamping: Swift.max(1, timeoutMs)), openTimeout = Int32(clamping: Swift.max(1, openTimeoutMs))
        try self.init(source: source.name, readingInfo: Self.nativeInfo) { path, opened, error in
            FilePathEncoding.withFileSystemRepresentation(path) {
                fk_video_open_live($0, Int32(kind.rawValue), timeout, openTimeout, Int64(maxPixels), &opened, error)
            }
        }
    }

    /// ``init(contentsOfFile:)`` with the call that reads the opened video's size and rate
    /// given, so that tests can make it fail.
    convenience init(
        contentsOfFile path: String, maxPixels: Int = FaceImage.defaultMaxPixels,
        readingInfo readInfo: (_ video: OpaquePointer, _ path: String) throws(FaceKitError) -> fk_video_info
    ) throws(FaceKitError) {
        try self.init(source: path, readingInfo: readInfo) { path, opened, error in
            FilePathEncoding.withFileSystemRepresentation(path) { fk_video_open($0, Int64(maxPixels), &opened, error) }
        }
    }

    private init(
        source path: String,
        readingInfo readInfo: (_ video: OpaquePointer, _ path: String) throws(FaceKitError) -> fk_video_info,
        opening open: (String, inout OpaquePointer?, UnsafeMutablePointer<fk_error>) -> Int32
    ) throws(FaceKitError) {
        var opened: OpaquePointer?
        try callNative(subject: path) { error in open(path, &opened, error) }
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
        declaredDurationMs = info.duration_ms.isFinite ? Swift.max(0, info.duration_ms) : 0
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
        lastTimestampMs = timestamp
        let frame = try image.map { pointer throws(FaceKitError) in try FaceImage(taking: pointer, subject: path) }
        return Frame(index: Int(index), timestampMs: timestamp, image: frame)
    }

    /// Why reading ended (``End/endOfStream`` while it has not). Runs `fk_video_get_end`.
    public var end: End {
        var end = FK_VIDEO_END_OF_STREAM
        _ = fk_video_get_end(pointer, &end, nil)
        switch end {
        case FK_VIDEO_END_STALLED: return .stalled
        case FK_VIDEO_END_INTERRUPTED: return .interrupted
        default: return .endOfStream
        }
    }

    /// Frames read while FFmpeg reported decoding errors (damaged data it concealed, or could not
    /// decode): how many, and the indexes of the first and the last.
    public struct Damage: Sendable, Equatable {
        public var frames: Int
        public var first: Int
        public var last: Int
    }

    /// The frames read so far that decoded with errors; `nil` when none did. FFmpeg's errors
    /// name no video, so they are counted only while this is the one video open in the process.
    /// Runs `fk_video_get_damage`.
    public var damage: Damage? {
        var frames: Int64 = 0, first: Int64 = -1, last: Int64 = -1
        _ = fk_video_get_damage(pointer, &frames, &first, &last, nil)
        return frames > 0 ? Damage(frames: Int(frames), first: Int(first), last: Int(last)) : nil
    }

    /// What ends this reader's reading from another thread (a signal's handler, a timer).
    public var interruption: Interruption { Interruption(reader: self) }

    /// Ends a reader's reading from any thread: the frame being waited for (even from a source
    /// that sends nothing) and every later one read as the end, with ``End/interrupted``.
    public final class Interruption: @unchecked Sendable {
        // fk_video_interrupt is the one fk_video call safe from any thread; the reader is kept
        // alive for as long as this is.
        private let reader: VideoReader
        fileprivate init(reader: VideoReader) { self.reader = reader }

        /// Runs `fk_video_interrupt`.
        public func interrupt() { _ = fk_video_interrupt(reader.pointer, nil) }
    }

    /// True when reading stopped well before the declared end: the data stopped decoding (a
    /// truncated or damaged file). Both the frames and the time must fall short, since either
    /// alone can mislead: the count is an estimate where frames have no fixed rate (Matroska),
    /// and counts frames an edit list hides (MOV, MP4); the duration is unknown in some
    /// containers. A shortfall of 5 frames or 2% (of the count, and of the duration) is tolerated.
    public var endedEarly: Bool {
        let frames = lastIndex + 1
        let countShort = declaredFrameCount > 0 && frames < declaredFrameCount - Swift.max(5, declaredFrameCount / 50)
        guard countShort, declaredDurationMs > 0 else { return countShort }
        let frameMs = framesPerSecond > 0 ? 1000 / framesPerSecond : 40
        let reachedMs = frames > 0 ? lastTimestampMs + frameMs : 0
        return reachedMs < declaredDurationMs - Swift.max(5 * frameMs, declaredDurationMs / 50)
    }
}

extension VideoReader: Sequence {
    /// Reads the frames one after the other, each decoded (``next(decode:)``), until the end of
    /// the stream or an error, which it keeps in ``readingError``.
    public struct Iterator: IteratorProtocol {
        fileprivate let reader: VideoReader

        public mutating func next() -> Frame? {
            guard reader.readingError == nil else { return nil }
            do {
                return try reader.next(decode: true)
            } catch {
                reader.readingError = error
                return nil
            }
        }
    }

    public func makeIterator() -> Iterator { Iterator(reader: self) }
}
