import FaceKit
import FaceKitArguments

/// `facekit track` on a live source (``LiveInput``): standard input, a stream URL or a camera.
///
/// Unlike a file, whose rows wait for its end so that tracks seen in different shots can be
/// joined, each analysed frame's rows (every `--every`th frame's) are written and flushed as soon
/// as the frame is done, with the IDs the tracker gives then (re-identification still brings back
/// a face within `--reid-window`).
/// A frame more than `--max-delay` seconds behind the stream's clock is read but not analysed
/// (``LiveDelay``), so the delay stays bounded however slow the analysis; the closing line counts
/// them. The stream ends when its data ends, when it sends nothing for `--stall-timeout` seconds
/// (said on standard error), or at the first SIGINT or SIGTERM: the rows of the frames done are
/// complete, `--output` and `--summary` are written, and the exit status is 0.
struct LiveTrack {
    let command: TrackCommand
    let source: VideoReader.LiveSource
    /// How long a stream may take to open (FFmpeg probes its first second of data).
    static let openTimeoutSeconds = 30.0

    func run(_ context: CommandContext) throws -> ExitStatus {
        let rowsFile = try command.collection.output.map { path throws(OutputError) in try OutputFile(path: path) }
        let summaryFile = try command.summary.map { path throws(OutputError) in try OutputFile(path: path) }
        let tracker: FaceTracker
        let video: VideoReader
        do {
            tracker = try command.makeTracker()
            // A sender may start after FaceKit: the open waits longer than a read.
            video = try VideoReader(
                liveSource: source, timeoutMs: Int(command.stallTimeout * 1000),
                openTimeoutMs: Int(max(command.stallTimeout, Self.openTimeoutSeconds) * 1000))
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
                    landmarks: command.detection.landmarks, descriptors: command.people.descriptors, people: false),
                output: rows),
            summary: summaryFile != nil, countsBlinks: command.detection.classify, namesPeople: false)
        written.writer.writeHeader()
        rows.flush()
        let interruption = video.interruption
        var tally = LiveTally(source: source.name)
        let started = ContinuousClock.now
        let readFailure = InterruptCleanup.stopping(with: { interruption.interrupt() }) { () -> String? in
            var delay = LiveDelay(maximumSeconds: command.maxDelay)
            let progress = ProgressLine(
                output: context.stderr, enabled: command.showsProgress(context), source: source.name,
                estimate: FrameSampler.Estimate(framesToRead: nil, framesToAnalyse: nil))
            defer { progress.finish() }
            do {
                while let frame = try video.next() {
                    tally.framesRead += 1
                    defer { progress.update(framesRead: tally.framesRead, framesAnalysed: tally.framesAnalysed) }
                    guard let image = frame.image, frame.index % command.frames.every == 0 else { continue }
                    if delay.isLate(timestampMs: frame.timestampMs, now: .now) {
                        tally.framesSkipped += 1
                        continue
                    }
                    for record in try tracker.records(of: frame, image: image, source: source.name) {
                        written.write(record)
                    }
                    rows.flush()
                    tally.framesAnalysed += 1
                }
            } catch {
                return "\(source.name): \(error); the rows of the \(tally.framesAnalysed) frames before are kept"
            }
            return nil
        }
        (tally.faces, tally.tracks) = written.takeCounts()
        tally.end = video.end
        var failure = readFailure
        if failure == nil, tally.framesRead == 0, tally.end != .interrupted {
            failure = "\(MessageText.escaped(source.name)): no video frame could be read from the source"
        }
        // Said, but not a failure: a stream over UDP loses a packet now and then.
        if let damaged = video.incompleteReadingMessage(kept: "rows") { context.stderr.writeDiagnostic(damaged) }
        if let failure { context.stderr.writeDiagnostic(failure) }
        if tally.end == .stalled {
            context.stderr.writeDiagnostic(
                "\(MessageText.escaped(source.name)): no data for \(command.stallTimeout.defaultValueDescription) s "
                    + "(--stall-timeout): the stream stalled or stopped")
        }
        try rowsFile?.commit()
        rows.flush()
        try written.commitSummary(to: summaryFile)
        if !command.quiet {
            context.stderr.write(tally.summaryText(seconds: StatusLine.seconds(.now - started)) + "\n")
        }
        return failure == nil ? .success : .failure
    }
}

/// What a live run went through, for its closing line (written even when standard error is not
/// a terminal, since the skipped frames are news): `udp://127.0.0.1:5004: 812 frames read, 800
/// analysed, 12 skipped (over --max-delay), 3 tracks, 1030 faces, 27.1 s`.
struct LiveTally: Equatable {
    var source: String
    var framesRead = 0
    var framesAnalysed = 0
    var framesSkipped = 0
    var faces = 0
    var tracks = 0
    var end = VideoReader.End.endOfStream

    func summaryText(seconds: Double) -> String {
        let ending: String =
            switch end {
            case .endOfStream: "stream ended"
            case .stalled: "stream stalled"
            case .interrupted: "stopped by signal"
            }
        let parts = [
            TrackTally.counted(framesRead, "frame") + " read", "\(framesAnalysed) analysed",
            "\(framesSkipped) skipped (over --max-delay)", TrackTally.counted(tracks, "track"),
            TrackTally.counted(faces, "face"), ending,
            (NumberFormat.decimal(seconds, fractionDigits: 1) ?? "0") + " s",
        ]
        return MessageText.escaped(source) + ": " + parts.joined(separator: ", ")
    }
}
