import FaceKit
import FaceKitArguments

/// `facekit track` on a live source (``LiveInput``): standard input, a stream URL or a camera.
///
/// Unlike a file, whose rows wait for its end so that tracks seen in different shots can be
/// joined, each analysed frame's rows (every `--every`th frame's) are written and flushed as soon
/// as the frame is done, with the IDs the tracker gives then (re-identification still brings back
/// a face within `--reid-window`). Frames over `--max-delay` are read but not analysed, and the
/// closing line counts them; the stream ends as ``LiveReading`` says: the rows of the frames done
/// are complete, `--output` and `--summary` are written, and the exit status is 0.
struct LiveTrack {
    let command: TrackCommand
    let source: VideoReader.LiveSource

    func run(_ context: CommandContext) throws -> ExitStatus {
        let rowsFile = try command.collection.output.map { path throws(OutputError) in try OutputFile(path: path) }
        let summaryFile = try command.summary.map { path throws(OutputError) in try OutputFile(path: path) }
        let tracker: FaceTracker
        let video: VideoReader
        do {
            tracker = try command.makeTracker()
            video = try command.live.open(source, maxPixels: command.maxPixels)
        } catch {
            rowsFile?.discard()
            summaryFile?.discard()
            if case .invalidOption = error { throw DetectionFlags.usageError(error) }
            throw error
        }
        if let note = tracker.reidentificationNote { context.stderr.writeDiagnostic(note) }
        let rows: any TextOutput = rowsFile ?? context.stdout
        var written = TrackRows(
            writer: command.collection.format.writer(
                columns: FaceRecordColumns(
                    landmarks: command.detection.landmarks, descriptors: command.people.descriptors, people: false,
                    points68: command.collection.points68),
                output: rows),
            summary: summaryFile != nil, countsBlinks: command.detection.classify, namesPeople: false)
        written.writer.writeHeader()
        rows.flush()
        var tally = LiveTally(source: source.name)
        let started = ContinuousClock.now
        let progress = ProgressLine(
            output: context.stderr, enabled: command.showsProgress(context), source: source.name,
            estimate: FrameSampler.Estimate(framesToRead: nil, framesToAnalyse: nil))
        let failure = LiveReading(video: video, flags: command.live, every: command.frames.every).run(
            tally: &tally, progress: progress, kept: "rows"
        ) { frame, image, analyse throws(FaceKitError) in
            guard analyse else { return }
            let records = try tracker.records(of: frame, image: image, source: source.name)
            for record in records { written.write(record) }
            if records.isEmpty { written.write(FaceTracker.faceless(frame, source: source.name)) }
            rows.flush()
        }
        (tally.faces, tally.tracks) = written.takeCounts()
        LiveTally.report(failure: failure, video: video, tally: tally, flags: command.live, kept: "rows", to: context.stderr)
        try rowsFile?.commit()
        rows.flush()
        try written.commitSummary(to: summaryFile)
        if !command.quiet {
            context.stderr.write(tally.summaryText(seconds: StatusLine.seconds(.now - started)) + "\n")
        }
        return failure == nil ? .success : .failure
    }
}
