extension FrameSampler {
    /// How many frames of a video `track` will read and analyse, estimated before it starts, for
    /// the progress line's total and time left.
    struct Estimate: Equatable {
        /// Frames read, from the first to `--end` (frames before `--start` are read too, to get
        /// past them); `nil` when unknown.
        var framesToRead: Int?
        /// Frames analysed: those in range, every `--every`th; `nil` when unknown.
        var framesToAnalyse: Int?
    }

    /// The estimate for a video whose container declares `declaredFrames` frames (0: unknown)
    /// at `framesPerSecond` (0: unknown), frame i being shown at i / `framesPerSecond`.
    ///
    /// ```swift
    /// FrameSampler(every: 10, startMs: 60_000, endMs: 80_000)
    ///     .estimate(declaredFrames: 3600, framesPerSecond: 30)   // 2400 to read, 60 to analyse
    /// ```
    func estimate(declaredFrames: Int, framesPerSecond: Double) -> Estimate {
        let known = framesPerSecond > 0
        let declared = declaredFrames > 0 ? declaredFrames : nil
        // The first frame shown at or after a time.
        func frame(atMs ms: Double) -> Int? { known ? Int((ms * framesPerSecond / 1000).rounded(.up)) : nil }
        let endFrame = endMs.flatMap(frame(atMs:))
        let toRead: Int? =
            switch (declared, endFrame) {
            case (let declared?, let endFrame?): min(declared, endFrame)
            case (let declared?, nil): endMs == nil ? declared : nil
            case (nil, let endFrame?): endFrame
            case (nil, nil): nil
            }
        let firstInRange = startMs.map { frame(atMs: $0) } ?? 0
        guard let toRead, let firstInRange else { return Estimate(framesToRead: toRead, framesToAnalyse: nil) }
        let inRange = max(0, toRead - firstInRange)
        return Estimate(framesToRead: toRead, framesToAnalyse: (inRange + every - 1) / every)
    }
}
