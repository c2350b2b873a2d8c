import FaceKit
import FaceKitArguments

/// The reading loop of a live source (``LiveInput``), shared by `track` and `annotate`: each frame
/// `--every` chooses is handed on as soon as it is decoded, with whether to analyse it: a frame
/// more than `--max-delay` behind the stream's clock is not (``LiveDelay``), so the delay stays
/// bounded however slow the analysis. Reading ends when the stream's data ends, when it sends
/// nothing for `--stall-timeout`, at the first SIGINT, SIGTERM or SIGHUP (``InterruptCleanup``), or at the
/// first failure.
///
/// ```swift
/// let failure = LiveReading(video: video, flags: live, every: 1).run(tally: &tally, progress: line, kept: "rows") {
///     frame, image, analyse in if analyse { rows += try tracker.records(of: frame, image: image, source: "-") }
/// }
/// ```
struct LiveReading {
    let video: VideoReader
    let flags: LiveFlags
    let every: Int

    /// Reads to the end, calling `handle` with each chosen frame, its image and whether to analyse
    /// it, and counting in `tally`. Returns the message to report when reading or `handle` failed,
    /// which says that the `kept` ("rows", "frames") of the frames analysed before are kept.
    func run(
        tally: inout LiveTally, progress: ProgressLine, kept: String,
        handle: (VideoReader.Frame, FaceImage, _ analyse: Bool) throws(FaceKitError) -> Void
    ) -> String? {
        let interruption = video.interruption
        let failure = InterruptCleanup.stopping(with: { interruption.interrupt() }) { () -> String? in
            var delay = LiveDelay(maximumSeconds: flags.maxDelay)
            defer { progress.finish() }
            do throws(FaceKitError) {
                while let frame = try video.next() {
                    tally.framesRead += 1
                    defer { progress.update(framesRead: tally.framesRead, framesAnalysed: tally.framesAnalysed) }
                    guard let image = frame.image, frame.index % every == 0 else { continue }
                    let late = delay.isLate(timestampMs: frame.timestampMs, now: .now)
                    try handle(frame, image, !late)
                    if late { tally.framesSkipped += 1 } else { tally.framesAnalysed += 1 }
                }
            } catch {
                return "\(MessageText.escaped(tally.source)): \(error); the \(kept) of the \(tally.framesAnalysed) frames before are kept"
            }
            return nil
        }
        tally.end = video.end
        if failure == nil, tally.framesRead == 0, tally.end != .interrupted {
            return "\(MessageText.escaped(tally.source)): no video frame could be read from the source"
        }
        return failure
    }
}
