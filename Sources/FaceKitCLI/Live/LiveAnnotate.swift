import FaceKit
import FaceKitArguments

/// `facekit annotate` on a live source (``LiveInput``): one pass, each frame drawn and written to
/// the copy (`<output>/<name>.mkv`, ``LiveInput/copyName(for:)``) as soon as it is analysed.
///
/// A file is read twice so that each face carries the ID that tracks joined at its end give
/// (``TrackedFrames``); a stream cannot be, so faces carry the IDs the tracker gives as the frames
/// come, as `facekit track` writes them for a live source. A frame over `--max-delay` is not
/// analysed (``LiveReading``) but still written, with the marks of the last frame analysed, so
/// that the copy keeps the stream's timing. When the stream ends, stalls or is stopped by SIGINT,
/// SIGTERM or SIGHUP, the copy is finished and put in place, standard output names it, and the exit
/// status is 0.
struct LiveAnnotate {
    let command: AnnotateCommand
    let source: VideoReader.LiveSource

    /// Frame rate for the copy when the stream declares none, or one no video has.
    static let fallbackFramesPerSecond = 25.0

    func run(_ context: CommandContext) throws -> ExitStatus {
        let target = AnnotationTarget(
            input: source.name, relativeOutput: LiveInput.copyName(for: source), outputFolder: command.output!)
        let tracker: FaceTracker
        let video: VideoReader
        do {
            let detector = try FaceDetector(options: command.videoOptions, models: command.detection.models)
            tracker = try command.video.tracker(
                detector: detector, models: command.detection.models, reidentification: .automatic,
                every: command.frames.every)
            video = try command.live.open(source, maxPixels: command.maxPixels)
        } catch {
            if case .invalidOption = error { throw DetectionFlags.usageError(error) }
            throw error
        }
        if let note = tracker.reidentificationNote { context.stderr.writeDiagnostic(note) }
        let declared = video.framesPerSecond
        let framesPerSecond = (declared > 0 && declared <= 240 ? declared : Self.fallbackFramesPerSecond)
        let copy: AnnotatedVideoCopy
        do {
            copy = try AnnotatedVideoCopy(
                target, framesPerSecond: framesPerSecond / Double(command.frames.every), width: video.width,
                height: video.height)
        } catch {
            context.stderr.writeDiagnostic(error.description)
            return .failure
        }
        var tally = LiveTally(source: source.name)
        var latest: [Face] = []  // the faces of the last frame analysed
        var facesDrawn = 0
        var facesFound = 0
        var tracks = Set<Int>()
        let started = ContinuousClock.now
        let progress = ProgressLine(
            output: context.stderr, enabled: !command.quiet && context.stderr.isTerminal, source: source.name,
            estimate: FrameSampler.Estimate(framesToRead: nil, framesToAnalyse: nil))
        var failure = LiveReading(video: video, flags: command.live, every: command.frames.every).run(
            tally: &tally, progress: progress, kept: "frames"
        ) { frame, image, analyse throws(FaceKitError) in
            if analyse {
                latest = try tracker.process(image, timestampMs: frame.timestampMs)
                facesFound += latest.count
                tracks.formUnion(latest.compactMap(\.trackingID))
            }
            try copy.write(command.annotated(image, faces: latest))
            facesDrawn += latest.count
        }
        (tally.faces, tally.tracks) = (facesFound, tracks.count)
        LiveTally.report(failure: failure, video: video, tally: tally, flags: command.live, kept: "frames", to: context.stderr)
        if copy.framesWritten == 0 {
            copy.discard()
            let (message, status) = Self.nothingWritten(failure: failure, tally: tally, input: target.input)
            if let message { context.stderr.writeDiagnostic(message) }
            return status
        }
        do {
            try copy.finish()
            context.stdout.write(MessageText.escaped(target.outputPath) + "\n")
            context.stdout.flush()
            if !command.quiet {
                context.stderr.writeDiagnostic(
                    AnnotationCount(frames: copy.framesWritten, faces: facesDrawn).line(for: target.outputPath))
            }
        } catch {
            context.stderr.writeDiagnostic(error.description)
            failure = failure ?? error.description
        }
        if !command.quiet {
            context.stderr.write(tally.summaryText(seconds: StatusLine.seconds(.now - started)) + "\n")
        }
        return failure == nil ? .success : .failure
    }

    /// What to add to the report, and the exit status, when no frame reached the copy: nothing
    /// for a failure already reported or for a signal before the first frame, else that no frame
    /// was analysed.
    static func nothingWritten(failure: String?, tally: LiveTally, input: String) -> (message: String?, status: ExitStatus) {
        if failure != nil { return (nil, .failure) }
        if tally.framesRead == 0, tally.end == .interrupted { return (nil, .success) }
        return ("\(input): not annotated: no frame was analysed before the stream ended", .failure)
    }
}
