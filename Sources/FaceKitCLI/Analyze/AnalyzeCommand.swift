import Foundation
import FaceKit
import FaceKitArguments

/// `facekit analyze`: finds faces in still images and writes one CSV row or JSON object per face,
/// and one for each image without a face and each input that failed (``FacelessRecord``).
///
/// Inputs that fail (missing, unreadable, not an image, too large) are reported on standard
/// error, one line each, and get a `failed` row; the rest are still written. Exit status 1 if any input
/// failed, 0 otherwise, 64 for a wrong command line. Folders are walked lazily, in the order of
/// ``ImageFileWalker``; `--shard K/N` takes one contiguous share of that order
/// (``CollectionShard``); with `--output`, rows go to `FILE.partial` with checkpoints in
/// `FILE.journal` (``ResumableFileOutput``, ``AnalyzeJournal``), so that `--resume` continues an
/// interrupted run (``ResumePlan``).
///
/// ```sh
/// facekit analyze --jobs 4 --shard 2/8 --resume --output faces-2.csv photos/
/// ```
struct AnalyzeCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "analyze",
            abstract: "Find faces in still images and write one row per face (and one per image without a face).",
            discussion: """
                Folders are searched recursively for files named .jpg, .jpeg, .jpe, .png, .bmp, .dib, \
                .tif, .tiff, .webp, .heic, .heif, .hif or .avif, in path order. A file that cannot be \
                analysed is reported on standard error and gets a row with status failed; the exit status is then 1. With --output, an interrupted \
                run can be continued with --resume; --shard splits a collection between machines.
                """)
    }

    static var arguments: [ArgumentDefinition<AnalyzeCommand>] {
        DetectionFlags.arguments(
            \.detection,
            contoursHelp: "Compute the 15 contours of the largest face; needs --format jsonl (CSV has no room).")
            + PeopleFlags.arguments(\.people)
            + CollectionOutputFlags.arguments(
                \.collection,
                resumeHelp: "Continue an interrupted run with the same options and --output where it stopped.",
                shardHelp: "Analyse only the kth of n contiguous shares of the files in path order, as 2/4.")
            + [
                WorkerFlags.maxPixelsArgument(\.workers),
                WorkerFlags.jobsArgument(
                    \.workers, help: "Analyse this many images at once, one detector each; at most 4 per core."),
                .flag("quiet", \.quiet, help: "Do not show progress and the closing summary on a terminal."),
                .positional("path", \.paths, help: "An image file, or a folder to search for images."),
            ]
    }

    var detection = DetectionFlags()
    var people = PeopleFlags()
    var collection = CollectionOutputFlags()
    var workers = WorkerFlags()
    var quiet = false
    var paths: [String] = []

    init() {}

    /// The largest `--jobs` (``WorkerFlags/maximumJobs``).
    static var maximumJobs: Int { WorkerFlags.maximumJobs }
    /// `--jobs` and `--max-pixels`, as tests and the journal read them.
    var jobs: Int { workers.jobs }
    var maxPixels: Int { workers.maxPixels }
    /// `--format` and `--output`, as tests read them.
    var format: OutputFormat { collection.format }
    var output: String? { collection.output }

    func validate() throws(CommandError) {
        try workers.validate()
        try collection.validate()
        try collection.validate(inputs: paths)
        if detection.contours && format == .csv {
            throw CommandError(
                "'--contours' needs '--format jsonl': the CSV table has no contour columns "
                    + "(15 contours, 133 points per face), so they would not be written")
        }
        try people.validate(format: format)
        try detection.validate(detectorOptions)
    }

    /// The detection flags' options, with descriptors when the people flags need them.
    var detectorOptions: FaceDetectorOptions {
        var options = detection.detectorOptions
        options.descriptorMode = people.needsDescriptors ? .all : .none
        return options
    }

    /// What the journal records to tell whether a resumed run is the same run.
    var journalSettings: AnalyzeSettings {
        AnalyzeSettings(
            CollectionSettings(output: collection, detection: detection, people: people, paths: paths),
            AnalyzeOwnSettings(
                contours: detection.contours, minDetectionScore: detectorOptions.minDetectionScore,
                orientation: detectorOptions.orientationMode, maxPixels: maxPixels))
    }

    func run(_ context: CommandContext) throws -> ExitStatus {
        try run(context, hooks: AnalyzeHooks())
    }

    /// ``run(_:)`` with the knobs tests turn: how often to checkpoint, and where to stop as if killed.
    func run(_ context: CommandContext, hooks: AnalyzeHooks) throws -> ExitStatus {
        let showProgress = !quiet && context.stderr.isTerminal
        guard
            let run = try CollectionRun.open(
                collection, settings: journalSettings, paths: paths, context: context, showProgress: showProgress)
        else { return .success }
        // Whatever happens before the end, the files are left for a later --resume.
        defer { run.close() }
        let inputs = run.inputs
        workers.configureBLAS()
        let detectors = try makeDetectors()
        let known = try people.knownPeople(detector: detectors[0], warnings: context.stderr)

        let resumed = try run.start(checkpointInterval: hooks.checkpointInterval)
        let checkpointer = run.checkpointer
        let writer = run.writer(
            format: format,
            columns: FaceRecordColumns(
                landmarks: detection.landmarks, contours: detection.contours, descriptors: people.descriptors,
                people: known != nil, points68: collection.points68))

        let count = showProgress && inputs.count == nil ? BackgroundWalkCount(paths: paths) : nil
        defer { count?.cancel() }
        let knownCount = inputs.count
        let progress = CollectionProgress(
            output: context.stderr, enabled: showProgress, total: { knownCount ?? count?.total }, resumedFrom: resumed)
        let maxPixels = self.maxPixels
        let queue = PhotoQueue(detectors: detectors, window: 4 * jobs)
        var deliveredThisRun = 0
        var stoppedByHook = false
        queue.run(
            inputs: PhotoQueue.photos(inputs.remaining, detector: detectors[0], maxPixels: maxPixels),
            idleAfter: checkpointer == nil ? nil : hooks.checkpointInterval,
            onIdle: {
                checkpointer?.checkpointIfPending(progress.tally)
                if checkpointer?.failure != nil { queue.stop() }
            }
        ) { _, photo, result in
            let entry = photo.input
            switch result {
            case .success(let (faces, image)):
                for (faceIndex, face) in faces.enumerated() {
                    writer.write(
                        FaceRecord(source: entry.path, index: faceIndex, face: face, person: known?.match(face), image: image))
                }
                if faces.isEmpty { writer.write(FacelessRecord(source: entry.path, status: .noFace, image: image)) }
                progress.record(faces: faces.count, failed: false)
            case .failure(let failure):
                writer.write(FacelessRecord.failed(entry.path, message: failure.description))
                progress.interrupt { context.stderr.writeDiagnostic(failure.description) }
                progress.record(faces: 0, failed: true)
            }
            checkpointer?.record(entry.path)
            checkpointer?.checkpointIfDue(progress.tally)
            if checkpointer?.failure != nil { queue.stop() }
            deliveredThisRun += 1
            if deliveredThisRun == hooks.stopAfter {
                stoppedByHook = true
                queue.stop()
            }
        }
        if stoppedByHook { return .failure }
        progress.finish()
        if let failure = run.checkpointFailure { throw failure }
        try run.finish(progress.tally)
        return progress.failures > 0 ? .failure : .success
    }

    /// One detector per worker (an OpenCV network runs one call at a time, so workers sharing a
    /// detector would wait for each other), sharing one landmark model.
    private func makeDetectors() throws -> [FaceDetector] {
        do {
            let first = try FaceDetector(options: detectorOptions, models: detection.models)
            return try [first] + (1..<jobs).map { _ throws(FaceKitError) in try FaceDetector(sharingModelsWith: first) }
        } catch {
            if case .invalidOption = error { throw DetectionFlags.usageError(error) }
            throw error
        }
    }

}

/// What tests change in a run of ``AnalyzeCommand``.
struct AnalyzeHooks {
    /// How often rows are made durable with `--output`.
    var checkpointInterval: Duration = .seconds(1)
    /// Stop after this many inputs of this run are delivered, as a kill would: no last
    /// checkpoint, no rename.
    var stopAfter: Int?
}
