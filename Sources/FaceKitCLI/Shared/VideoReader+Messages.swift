import FaceKit

/// The lines `track` and `annotate` report when a video ends before its last frame; `kept` names
/// what the frames before the end gave ("rows", "frames").
extension VideoReader {
    /// For a video that stopped decoding well before its declared end (``endedEarly``), the line
    /// to report; `nil` for a video read to its end.
    func stoppedDecodingMessage(kept: String) -> String? {
        guard endedEarly else { return nil }
        return "\(path): video stopped decoding at frame \(lastIndex + 1) of about \(declaredFrameCount); "
            + "the \(kept) before it were written"
    }

    /// For `error`, met while analysing the frame after the last one read.
    func failureMessage(_ error: FaceKitError, kept: String) -> String {
        "\(error.description) (at frame \(lastIndex + 1); the \(kept) before it were written)"
    }
}
