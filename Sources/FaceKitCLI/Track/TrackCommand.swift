import FaceKit
import FaceKitArguments

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `facekit track`: follows every face through videos and writes one row per face per analysed
/// frame, with a tracking ID that stays with the same person.
///
/// A video that cannot be opened is reported on standard error, one line, and the others are
/// still tracked; a video that stops decoding half way keeps the rows written before and says at
/// which frame it stopped. Either makes the exit status 1; a wrong command line is 64.
struct TrackCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "track",
            abstract: "Follow faces through videos and write one row per face per analysed frame.",
            discussion: """
                Tracking IDs are unique within one run: a face keeps its ID while it is detected, \
                and through up to --max-missed analysed frames without a detection. When dlib's \
                face descriptor model is found, a face that comes back later (up to --reid-window \
                seconds after it was last seen) is recognised by appearance and keeps its ID too; \
                --no-reid turns that off. Contours \
                cannot be combined with tracking. A video that cannot be read is reported on \
                standard error and skipped; the exit status is then 1.
                """)
    }

    static var arguments: [ArgumentDefinition<TrackCommand>] {
        FrameSelectionFlags.arguments(\.frames)
            // --contours is parsed, unlisted, so that validate() can say why it is refused.
            + DetectionFlags.arguments(\.detection, contoursHelp: nil)
            + [
                .option(
                    "max-missed", \.maxMissed, valueName: "n",
                    help: "Analysed frames a face may go undetected before its ID is given up."),
                .option(
                    "reid-window", \.reidWindow, valueName: "seconds",
                    help: "How long after a face was last seen it can still be recognised by appearance."),
                .flag("no-reid", \.noReid, help: "Do not re-identify faces by appearance (faster)."),
            ]
            + VideoFlags.arguments(\.video)
            + [
                .option(
                    "format", \.format, valueName: "format", help: "Write one CSV row or one JSON object per face."),
                .option(
                    "output", \.output, valueName: "file",
                    help: "Write to this file, replaced only once complete, instead of standard output."),
                .option(
                    "summary", \.summary, valueName: "file",
                    help: "Also write one CSV row per tracking ID (first and last frame, duration, blinks) to this file."),
                .flag("quiet", \.quiet, help: "Do not show progress and the closing summary on a terminal."),
                .positional("video", \.videos, help: "A video file (MP4, MOV, AVI, ...)."),
            ]
    }

    var frames = FrameSelectionFlags()
    var detection = DetectionFlags()
    var maxMissed = TrackerConfiguration().maximumMissedFrames
    var reidWindow = TrackerConfiguration().reidentificationWindowMs / 1000
    var noReid = false
    var video = VideoFlags()
    var format: OutputFormat = .csv
    var output: String?
    var summary: String?
    var quiet = false
    var videos: [String] = []

    init() {}

    /// The detector options these flags ask for; tracking is always on.
    var detectorOptions: FaceDetectorOptions {
        var options = detection.detectorOptions
        options.isTrackingEnabled = true
        return options
    }

    var trackerConfiguration: TrackerConfiguration {
        var configuration = TrackerConfiguration()
        configuration.maximumMissedFrames = maxMissed
        configuration.reidentificationWindowMs = reidWindow * 1000
        return configuration
    }

    /// Re-identification is on whenever the descriptor model is found, unless `--no-reid`.
    var reidentification: FaceTracker.Reidentification { noReid ? .off : .automatic }

    func validate() throws(CommandError) {
        if detection.contours {
            throw CommandError(
                "'--contours' cannot be combined with tracking, which 'facekit track' always does: "
                    + "ML Kit computes contours only without tracking (use 'facekit analyze --contours' on frames)")
        }
        try frames.validate()
        guard maxMissed >= 0 else {
            throw CommandError("The value '\(maxMissed)' is invalid for '--max-missed <n>': it must not be negative")
        }
        guard reidWindow >= 0, reidWindow.isFinite else {
            throw CommandError(
                "The value '\(reidWindow.defaultValueDescription)' is invalid for '--reid-window <seconds>': "
                    + "it must not be negative")
        }
        try video.validate()
        if output?.isEmpty == true { throw CommandError("The value '' is invalid for '--output <file>'") }
        if summary?.isEmpty == true { throw CommandError("The value '' is invalid for '--summary <file>'") }
        try detection.validate(detectorOptions)
    }

    func run(_ context: CommandContext) throws -> ExitStatus {
        let file = try output.map { path throws(OutputError) in try AtomicFileOutput(path: path) }
        let summaryFile = try summary.map { path throws(OutputError) in try AtomicFileOutput(path: path) }
        let sink: any TextOutput = file ?? context.stdout
        let tracker: FaceTracker
        do {
            tracker = try video.tracker(
                detector: FaceDetector(options: detectorOptions, models: detection.models),
                configuration: trackerConfiguration, models: detection.models, reidentification: reidentification,
                every: frames.every)
        } catch {
            file?.discard()
            summaryFile?.discard()
            if case .invalidOption = error { throw DetectionFlags.usageError(error) }
            throw error
        }
        // Said even with --quiet: it changes what the IDs mean.
        if let note = tracker.reidentificationNote { context.stderr.writeDiagnostic(note) }
        let started = ContinuousClock.now
        let writer = format.writer(columns: FaceRecordColumns(landmarks: detection.landmarks), output: sink)
        writer.writeHeader()
        var table = TrackSummary(countsBlinks: detection.classify)
        var tally = TrackTally(videos: videos)
        for path in videos {
            tracker.reset()
            let outcome = track(path, with: tracker, context: context) { record in
                writer.write(record)
                tally.faces += 1
                table.add(
                    record.face, source: record.source, frame: record.frame!,
                    timestampMs: record.timestampMilliseconds!)
            }
            tally.framesAnalysed += outcome.framesAnalysed
            if let message = outcome.failure {
                context.stderr.writeDiagnostic(message)
                tally.failures += 1
            }
        }
        tally.tracks = table.entries.count
        if let summaryFile {
            summaryFile.write(table.csv())
            try summaryFile.commit()
        }
        if let file {
            try file.commit()
        } else {
            sink.flush()
        }
        if showsProgress(context) {
            context.stderr.write(tally.summaryText(seconds: StatusLine.seconds(.now - started)) + "\n")
        }
        return tally.failures > 0 ? .failure : .success
    }

    /// Progress and the closing line are drawn for a person watching a terminal, as by `analyze`.
    private func showsProgress(_ context: CommandContext) -> Bool { !quiet && context.stderr.isTerminal }

    /// Tracks one video, handing each face's record to `emit`; returns how many frames were
    /// analysed, and the message to report when the video could not be read to its end (`nil`
    /// when it was).
    private func track(
        _ path: String, with tracker: FaceTracker, context: CommandContext, emit: (FaceRecord) -> Void
    ) -> (framesAnalysed: Int, failure: String?) {
        let video: VideoReader
        do {
            video = try VideoReader(contentsOfFile: path)
        } catch {
            return (0, error.description)
        }
        var frames = SampledFrameReader(video: video, sampler: self.frames.sampler)
        let estimate = frames.sampler.estimate(
            declaredFrames: video.declaredFrameCount, framesPerSecond: video.framesPerSecond)
        let progress = ProgressLine(
            output: context.stderr, enabled: showsProgress(context), source: path, estimate: estimate)
        defer { progress.finish() }
        var framesAnalysed = 0
        do {
            while let (frame, analyse) = try frames.next() {
                if analyse, let image = frame.image {
                    for (face, detected) in try tracker.process(image, timestampMs: frame.timestampMs).enumerated() {
                        emit(
                            FaceRecord(
                                source: path, frame: frame.index, timestampMilliseconds: frame.timestampMs,
                                index: face, face: detected))
                    }
                    framesAnalysed += 1
                }
                progress.update(framesRead: frames.framesRead, framesAnalysed: framesAnalysed)
            }
        } catch {
            return (framesAnalysed, video.failureMessage(error, kept: "rows"))
        }
        return (framesAnalysed, frames.passedEnd ? nil : video.stoppedDecodingMessage(kept: "rows"))
    }
}
