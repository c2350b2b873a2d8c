import FaceKit
import FaceKitArguments

/// The lines `track`, `annotate` and `group` report when a video was not read cleanly; `kept`
/// names what its frames gave ("rows", "frames").
extension VideoReader {
    /// For a video that stopped decoding well before its declared end (``endedEarly``), or whose
    /// frames FFmpeg decoded with errors (``damage``), the line to report; `nil` for a video read
    /// cleanly to its end.
    func incompleteReadingMessage(kept: String) -> String? {
        if endedEarly {
            return "\(path): video stopped decoding at frame \(lastIndex + 1) of about \(declaredFrameCount); "
                + "the \(kept) before it were written"
        }
        guard let damage else { return nil }
        // FFmpeg decodes ahead of the frames handed out: the range is where the damage lies.
        let frames = damage.first == damage.last ? "frame \(damage.first)" : "frames \(damage.first) to \(damage.last)"
        return "\(path): \(frames) decoded with errors (damaged data, shown as grey or smeared areas); "
            + "their \(kept) were written, but may be wrong"
    }

    /// For a video read to its end in which `--start` and `--end` chose no frame (`framesRead`
    /// frames, the last at `lastTimestampMs`), the line to report, so that a header alone is not
    /// taken for a video without faces.
    func noFrameChosenMessage(sampler: FrameSampler, framesRead: Int, lastTimestampMs: Double?) -> String {
        let seconds = { (ms: Double) in NumberFormat.timestamp(ms / 1000) ?? "0" }
        guard framesRead > 0, let lastTimestampMs else { return "\(path): no frame analysed: the video has no frame" }
        if let startMs = sampler.startMs, lastTimestampMs < startMs {
            return "\(path): no frame analysed: its last frame is at \(seconds(lastTimestampMs)) s, "
                + "before --start \(seconds(startMs))"
        }
        return "\(path): no frame analysed: --start and --end choose none of its \(framesRead) frames"
    }

    /// For `error`, met while analysing the frame after the last one read.
    func failureMessage(_ error: FaceKitError, kept: String) -> String {
        "\(error.description) (at frame \(lastIndex + 1); the \(kept) before it were written)"
    }
}
