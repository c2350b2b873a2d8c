/// Decides which frames of a video `facekit track` analyses: those from `--start` on, before
/// `--end`, and every Nth of them counted from the first one in range (`--every`).
///
/// The decision to decode has to be taken before a frame is read, so it uses the timestamp the
/// frame rate predicts; the frame's real timestamp then confirms it. Skipped frames are not
/// decoded, which is most of the saving of `--every`. Without `--start` every frame is in range,
/// even one stamped before zero (HEVC clips with an edit list start slightly negative).
///
/// ```swift
/// var sampler = FrameSampler(every: 24, startMs: nil, endMs: nil)
/// sampler.decision(index: 0, timestampMs: 0, decoded: true)    // .analyse
/// sampler.decision(index: 1, timestampMs: 33, decoded: false)  // .skip
/// sampler.decision(index: 24, timestampMs: 800, decoded: true) // .analyse
/// ```
struct FrameSampler {
    enum Decision: Equatable {
        case analyse
        case skip
        /// Past `--end`: nothing later is wanted.
        case stop
    }

    let every: Int
    /// `nil`: from the first frame.
    let startMs: Double?
    let endMs: Double?
    /// Index of the first frame at or after `--start`, once read.
    private(set) var firstIndexInRange: Int?

    init(every: Int, startMs: Double?, endMs: Double?) {
        precondition(every >= 1, "FrameSampler: every must be at least 1")
        self.every = every
        self.startMs = startMs
        self.endMs = endMs
    }

    /// Whether the frame at `index`, expected at `expectedTimestampMs` (`nil` when the frame
    /// rate is unknown), should be decoded. Errs on the side of decoding near `--start`.
    func shouldDecode(index: Int, expectedTimestampMs: Double?, frameDurationMs: Double) -> Bool {
        if let firstIndexInRange { return (index - firstIndexInRange) % every == 0 }
        guard let startMs, let expected = expectedTimestampMs else { return true }
        return expected >= startMs - 1.5 * frameDurationMs
    }

    /// What to do with the frame just read.
    mutating func decision(index: Int, timestampMs: Double, decoded: Bool) -> Decision {
        if let endMs, timestampMs >= endMs { return .stop }
        if let startMs, timestampMs < startMs { return .skip }
        if firstIndexInRange == nil { firstIndexInRange = index }
        guard (index - firstIndexInRange!) % every == 0, decoded else { return .skip }
        return .analyse
    }
}
