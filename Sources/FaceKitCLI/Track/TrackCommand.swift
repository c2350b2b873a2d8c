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
/// The inputs are videos and folders, searched for videos (``ImageFileWalker`` with
/// ``ImageFileWalker/videoExtensions``) in the walk order of `analyze`; each video's IDs start at
/// 0. A video that cannot be opened is reported on standard error, one line, and the others are
/// still tracked; a video that stops decoding half way keeps the rows written before and says at
/// which frame it stopped. Either makes the exit status 1; a wrong command line is 64. As for
/// `analyze`, `--shard K/N` takes one contiguous share of the videos and `--resume` continues an
/// interrupted `--output`, video by video: a video is never split, and one interrupted half way
/// is tracked again from its start.
struct TrackCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "track",
            abstract: "Follow faces through videos and write one row per face per analysed frame.",
            discussion: """
                Tracking IDs are unique within one video: a face keeps its ID while it is detected, \
                and through up to --max-missed analysed frames without a detection. When dlib's \
                face descriptor model is found, a face that comes back later (up to --reid-window \
                seconds after it was last seen) is recognised by appearance and keeps its ID too; \
                --no-reid turns that off. Contours \
                cannot be combined with tracking. Folders are searched recursively for files named \
                .mp4, .mov, .avi, .mkv, .m4v or .webm, in path order. A video that cannot be read is \
                reported on standard error and skipped; the exit status is then 1. With --output, an \
                interrupted run can be continued with --resume, video by video; --shard splits the \
                videos between machines.
                """)
    }

    static var arguments: [ArgumentDefinition<TrackCommand>] {
        FrameSelectionFlags.arguments(\.frames)
            // --contours is parsed, unlisted, so that validate() can say why it is refused.
            + DetectionFlags.arguments(\.detection, contoursHelp: nil, orientationHelp: nil)
            + PeopleFlags.arguments(\.people)
            + [
                .option(
                    "max-missed", \.maxMissed, valueName: "n",
                    help: "Analysed frames a face may go undetected before its ID is given up."),
                .option(
                    "reid-window", \.reidWindow, valueName: "seconds",
                    help: "How long after a face was last seen it can still be recognised by appearance."),
                .flag("no-reid", \.noReid, help: "Do not re-identify faces by appearance (faster)."),
                .option(
                    "max-pixels", \.maxPixels, valueName: "n",
                    help: "Refuse videos whose frames have more pixels (width x height) than this."),
            ]
            + LiveFlags.arguments(\.live)
            + VideoFlags.arguments(\.video)
            + CollectionOutputFlags.arguments(
                \.collection,
                resumeHelp: "Continue an interrupted run with the same options and --output after its last complete video.",
                shardHelp: "Track only the kth of n contiguous shares of the videos in path order, as 2/4.")
            + [
                .option(
                    "summary", \.summary, valueName: "file",
                    help: "Also write one CSV row per tracking ID (first and last frame, duration, blinks) to this file."),
                .flag("quiet", \.quiet, help: "Do not show progress and the closing summary on a terminal."),
                .positional(
                    "input", \.videos,
                    help: "A video file (MP4, MOV, AVI, ...), a folder to search for videos, or one live source: "
                        + "- (standard input), a stream URL (udp://, rtsp://, http://, ...) or a camera (/dev/video0)."),
            ]
    }

    var frames = FrameSelectionFlags()
    var detection = DetectionFlags()
    var people = PeopleFlags()
    var maxMissed = TrackerConfiguration().maximumMissedFrames
    var reidWindow = TrackerConfiguration().reidentificationWindowMs / 1000
    var noReid = false
    var maxPixels = FaceImage.defaultMaxPixels
    var live = LiveFlags()
    var video = VideoFlags()
    var collection = CollectionOutputFlags()
    var summary: String?
    var quiet = false
    var videos: [String] = []

    init() {}

    /// The detector options these flags ask for; tracking is always on.
    var detectorOptions: FaceDetectorOptions {
        var options = detection.detectorOptions
        options.isTrackingEnabled = true
        // --known names each track from the descriptors re-identification takes anyway.
        options.descriptorMode = people.descriptors ? .all : .none
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

    /// The live source to track, when the input is one (``LiveInput``).
    var liveSource: VideoReader.LiveSource? { videos.count == 1 ? LiveInput.source(named: videos[0]) : nil }

    func validate() throws(CommandError) {
        try validateLiveSource()
        if detection.contours {
            throw CommandError(
                "'--contours' cannot be combined with tracking, which 'facekit track' always does: "
                    + "ML Kit computes contours only without tracking (use 'facekit analyze --contours' on frames)")
        }
        if detection.orientation == .any {
            throw CommandError(
                "'--orientation any' is for photos: 'facekit track' searches video for upright faces only "
                    + "(use 'facekit analyze --orientation any' on frames)")
        }
        try WorkerFlags.validate(maxPixels: maxPixels)
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
        try collection.validate()
        let files = videos.filter { LiveInput.source(named: $0) == nil }
        try collection.validate(inputs: files)
        if summary?.isEmpty == true { throw CommandError("The value '' is invalid for '--summary <file>'") }
        if let summary {
            if let problem = OutputOverlap.tableProblem(option: "summary", output: summary, inputs: files) {
                throw CommandError(problem)
            }
            if let output = collection.output, OutputOverlap.replacedInput(output: summary, among: [output]) != nil {
                throw CommandError(
                    "'--summary \(MessageText.escaped(summary))' and '--output \(MessageText.escaped(output))' name the "
                        + "same file: the summary would replace the rows; give each a file of its own")
            }
        }
        if collection.resume && summary != nil {
            throw CommandError(
                "'--summary' cannot be combined with '--resume': the per-track table is made in one run, "
                    + "and the tracks of videos done before the interruption are not kept")
        }
        if people.known != nil && noReid {
            throw CommandError(
                "'--known' cannot be combined with '--no-reid': tracks are named from the face descriptors "
                    + "that re-identification computes")
        }
        try people.validate(format: collection.format)
        try detection.validate(detectorOptions)
    }

    /// A live source is the only input, and takes only the options that make sense for a stream.
    private func validateLiveSource() throws(CommandError) {
        try live.validate()
        let live = videos.filter { LiveInput.source(named: $0) != nil }
        guard let first = live.first else { return }
        guard videos.count == 1 else {
            throw CommandError(
                "'\(MessageText.escaped(first))' is a live source: track it on its own, not with other inputs")
        }
        let refused: [(Bool, String, String)] = [
            (collection.resume, "--resume", "a stream cannot be read again from where it was left"),
            (collection.shard != nil, "--shard", "a stream cannot be split between machines"),
            (frames.start != 0 || frames.end != nil, "--start/--end", "a stream is tracked from when it is opened until it ends"),
            (people.known != nil, "--known", "a live source's rows carry provisional IDs, and people are named by their final ones"),
        ]
        for (given, option, reason) in refused where given {
            throw CommandError("'\(option)' cannot be used with the live source '\(MessageText.escaped(first))': \(reason)")
        }
    }

    /// What the journal records to tell whether a resumed run is the same run.
    var journalSettings: TrackSettings {
        TrackSettings(
            CollectionSettings(output: collection, detection: detection, people: people, paths: videos),
            TrackOwnSettings(
                minDetectionScore: detectorOptions.minDetectionScore, every: frames.every, start: frames.start,
                end: frames.end, detectionInterval: video.detectionInterval, smoothing: !video.noSmoothing,
                maxMissed: maxMissed, reidWindow: reidWindow, reid: !noReid, maxPixels: maxPixels))
    }

    func run(_ context: CommandContext) throws -> ExitStatus {
        try run(context, hooks: TrackHooks())
    }

    /// ``run(_:)`` with the knob tests turn: where to stop as if killed.
    func run(_ context: CommandContext, hooks: TrackHooks) throws -> ExitStatus {
        if let liveSource { return try LiveTrack(command: self, source: liveSource).run(context) }
        guard
            let run = try CollectionRun.open(
                collection, settings: journalSettings, paths: videos, extensions: ImageFileWalker.videoExtensions,
                context: context, showProgress: showsProgress(context))
        else { return .success }
        // Whatever happens before the end, the files are left for a later --resume.
        defer { run.close() }
        let inputs = run.inputs
        let summaryFile = try summary.map { path throws(OutputError) in try OutputFile(path: path) }
        let tracker: FaceTracker
        let known: KnownPeople?
        do {
            tracker = try makeTracker()
            if people.known != nil {
                let detector = tracker.detector
                // The reference photos are stills: no tracking, but descriptors.
                var referenceOptions = detector.options
                referenceOptions.isTrackingEnabled = false
                referenceOptions.descriptorMode = .all
                known = try people.knownPeople(
                    detector: FaceDetector(options: referenceOptions, sharingModelsWith: detector),
                    warnings: context.stderr)
            } else {
                known = nil
            }
        } catch let error as FaceKitError {
            summaryFile?.discard()
            if case .invalidOption = error { throw DetectionFlags.usageError(error) }
            throw error
        } catch {
            summaryFile?.discard()
            throw error
        }
        // Said even with --quiet: it changes what the IDs mean.
        if let note = tracker.reidentificationNote { context.stderr.writeDiagnostic(note) }
        let started = ContinuousClock.now

        // A video is resumed from its start, so the only checkpoints are at the end of one.
        var tally = TrackTally(resumedFrom: try run.start(checkpointInterval: .zero))
        let checkpointer = run.checkpointer
        var rows = TrackRows(
            writer: run.writer(
                format: collection.format,
                columns: FaceRecordColumns(
                    landmarks: detection.landmarks, descriptors: people.descriptors, people: known != nil,
                    points68: collection.points68)),
            summary: summaryFile != nil, countsBlinks: detection.classify, namesPeople: known != nil)
        var framesLeft = hooks.stopAfterFrames
        for entry in inputs.remaining {
            tracker.reset()
            let outcome: (framesAnalysed: Int, failure: String?)
            if let failure = entry.failureDescription {
                outcome = (0, failure)
            } else {
                // Rows are written as their IDs become final (tracks seen in different shots
                // joined) and, with --known, their people's names settled (RowNaming). The 68
                // points only when written (they are 5 times the rest of a face).
                var naming = known.map { RowNaming(tracker: tracker, known: $0) }
                let keepsPoints = collection.points68
                outcome = tracker.trackVideo(
                    at: entry.path, maxPixels: maxPixels, sampler: frames.sampler, progress: (context.stderr, showsProgress(context)),
                    kept: "rows", framesLeft: &framesLeft, finalIDs: true,
                    emit: { record in
                        var record = record
                        if !keepsPoints { record.face.points68 = [] }
                        if naming == nil { rows.write(record) } else { naming!.add(.face(record), to: &rows) }
                    },
                    emitFaceless: { record in
                        if naming == nil { rows.write(record) } else { naming!.add(.faceless(record), to: &rows) }
                    })
                // Stopped as a kill would stop it: no checkpoint for this video, no rename.
                if framesLeft == 0 { return .failure }
                naming?.finish(into: &rows)
            }
            let written = rows.takeCounts()
            tally.countVideo(entry.path)
            tally.framesAnalysed += outcome.framesAnalysed
            tally.faces += written.faces
            tally.tracks += written.tracks
            if let message = outcome.failure {
                // After the rows kept: the table says which videos failed, and why.
                rows.write(FacelessRecord.failed(entry.path, message: message))
                context.stderr.writeDiagnostic(message)
                tally.failures += 1
            }
            checkpointer?.record(entry.path)
            checkpointer?.checkpointIfPending(tally.collectionTally)
            if let failure = run.checkpointFailure { throw failure }
        }
        try run.finish(tally.collectionTally)
        try rows.commitSummary(to: summaryFile)
        if showsProgress(context) {
            context.stderr.write(tally.summaryText(seconds: StatusLine.seconds(.now - started)) + "\n")
        }
        return tally.failures > 0 ? .failure : .success
    }

    /// `records` (one video's, with the provisional IDs of ``FaceTracker/process(_:timestampMs:)``)
    /// with their final IDs (``FaceTracker/videoTrackIDs()``: tracks joined across cuts share one,
    /// numbered 0, 1, 2... in order of appearance), and each named after the known person its
    /// track's descriptors match. `annotate` and `report` give a video's rows their IDs here; `track`
    /// takes the same final IDs as the frames come (``FaceTracker/track(_:index:timestampMs:)``).
    static func joined(_ records: [FaceRecord], tracker: FaceTracker, known: KnownPeople?) -> [FaceRecord] {
        let videoIDs = tracker.videoTrackIDs()
        let final = records.map { record in
            var record = record
            record.face.trackingID = videoIDs[record.face.trackingID!] ?? record.face.trackingID!
            return record
        }
        return named(final, tracker: tracker, known: known)
    }

    /// `records` (one video's, with final IDs, at its end), each named after the known person its
    /// person's descriptor matches (``FaceTracker/personDescriptor(ofTrack:)``, as `track` names
    /// them while the video streams); unchanged without `known`.
    static func named(_ records: [FaceRecord], tracker: FaceTracker, known: KnownPeople?) -> [FaceRecord] {
        guard let known else { return records }
        let people = tracker.videoPersonDescriptors().mapValues { $0.map(known.match) }
        return records.map { record in
            var record = record
            record.person = people[record.face.trackingID!] ?? nil
            return record
        }
    }

    /// The tracker these flags ask for, its models loaded.
    func makeTracker() throws(FaceKitError) -> FaceTracker {
        let detector = try FaceDetector(options: detectorOptions, models: detection.models)
        return try video.tracker(
            detector: detector, configuration: trackerConfiguration, models: detection.models,
            reidentification: people.known == nil ? reidentification : .required, every: frames.every)
    }

    /// Progress and the closing line are drawn for a person watching a terminal, as by `analyze`.
    func showsProgress(_ context: CommandContext) -> Bool { !quiet && context.stderr.isTerminal }
}

/// What tests change in a run of ``TrackCommand``.
struct TrackHooks {
    /// Stop after this many frames of this run are analysed and their rows written, as a kill
    /// would: no checkpoint for the video being tracked, no rename.
    var stopAfterFrames: Int?
}
