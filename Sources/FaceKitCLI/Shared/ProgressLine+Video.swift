import FaceKit
import FaceKitArguments

extension ProgressLine {
    /// The line of one video read through `frames`, with the total the container declares,
    /// as `track` draws it: what `group` and `report` show while they track a video, which
    /// takes them as long as it takes `track`.
    ///
    /// ```swift
    /// let progress = ProgressLine(output: stderr, enabled: stderr.isTerminal, source: path, frames: reader)
    /// // clip.mp4: frame 120 of ~275, analysing 48.2 frames/s, about 4 s left
    /// ```
    convenience init(output: any TextOutput, enabled: Bool, source: String, frames: SampledFrameReader) {
        self.init(
            output: output, enabled: enabled, source: source,
            estimate: frames.sampler.estimate(
                declaredFrames: frames.video.declaredFrameCount, framesPerSecond: frames.video.framesPerSecond))
    }
}
