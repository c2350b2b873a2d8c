import FaceKit

/// Reads a video's frames for `track` and `annotate`, decoding only those its ``FrameSampler``
/// may analyse and saying of each whether it is analysed.
///
/// Reading ends at the end of the stream, where the data stops decoding (``VideoReader/endedEarly``
/// tells), or at the first frame past `--end` (``passedEnd``), which is not returned.
///
/// ```swift
/// var frames = SampledFrameReader(video: try VideoReader(contentsOfFile: "clip.mp4"), sampler: flags.sampler)
/// while let (frame, analyse) = try frames.next() { if analyse { print(frame.index) } }
/// ```
struct SampledFrameReader {
    let video: VideoReader
    private(set) var sampler: FrameSampler
    /// Frames read so far, analysed or not.
    private(set) var framesRead = 0
    /// Whether reading stopped at a frame shown at or after `--end`.
    private(set) var passedEnd = false
    /// The timestamp of the last frame read.
    private(set) var previousTimestampMs: Double?

    init(video: VideoReader, sampler: FrameSampler) {
        self.video = video
        self.sampler = sampler
    }

    /// The next frame read, decoded when it may be analysed, and whether it is to be analysed;
    /// `nil` when reading has ended.
    mutating func next() throws(FaceKitError) -> (frame: VideoReader.Frame, analyse: Bool)? {
        guard !passedEnd else { return nil }
        let frameDurationMs = video.framesPerSecond > 0 ? 1000 / video.framesPerSecond : 0
        let index = video.lastIndex + 1
        let expected = frameDurationMs > 0 ? (previousTimestampMs.map { $0 + frameDurationMs } ?? 0) : nil
        let decode = sampler.shouldDecode(index: index, expectedTimestampMs: expected, frameDurationMs: frameDurationMs)
        guard let frame = try video.next(decode: decode) else { return nil }
        framesRead += 1
        previousTimestampMs = frame.timestampMs
        switch sampler.decision(index: frame.index, timestampMs: frame.timestampMs, decoded: frame.image != nil) {
        case .stop:
            passedEnd = true
            return nil
        case .analyse:
            return (frame, frame.image != nil)
        case .skip:
            return (frame, false)
        }
    }
}
