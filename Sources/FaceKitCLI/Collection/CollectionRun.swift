import FaceKitArguments

/// The steps every resumable collection run takes (`analyze`, `track`), in the order they must
/// come, made once so that a fix to resume is made once.
///
/// 1. ``open(_:settings:paths:extensions:context:showProgress:)`` opens `--output`
///    (``CollectionOutput``), plans the resume (``ResumePlan``), ends the run if the output is
///    already complete from the same inputs and options (it returns `nil`), and reads the inputs
///    (``CollectionInputs``), all before the models load, so that a refused resume is quick.
/// 2. The command loads its models; ``close()`` (deferred) leaves the files for a later
///    `--resume` whatever happens before the end.
/// 3. ``start(checkpointInterval:)`` continues the journal of the interrupted run, or writes the
///    header of a new one, and returns the tally the interrupted run had reached; until
///    ``finish(_:)``, a Ctrl-C ends with the command that continues the run (``ResumeHint``);
///    ``writer(format:columns:)`` writes the table's header only for a fresh output.
/// 4. For each input, ``checkpointer`` records it once its rows are written, and
///    ``checkpointFailure`` says when the run must stop.
/// 5. ``finish(_:)`` writes the complete checkpoint and renames the file into place, commits a
///    special file, or flushes standard output.
///
/// ```swift
/// guard let run = try CollectionRun.open(flags, settings: settings, paths: paths, context: context,
///                                        showProgress: true) else { return .success }
/// defer { run.close() }
/// let resumed = try run.start(checkpointInterval: .seconds(1))
/// let writer = run.writer(format: .csv, columns: columns)
/// for entry in run.inputs.remaining { ...; run.checkpointer?.record(entry.path) }
/// try run.finish(tally)
/// ```
final class CollectionRun<Settings: JournalSettings> {
    /// `--output`, or `nil` for standard output.
    let destination: CollectionOutput?
    let plan: ResumePlan<Settings>
    let inputs: CollectionInputs
    /// Where the rows go: the output, or standard output.
    let rows: any TextOutput
    private let settings: Settings
    /// The command line and the program as it was run, for the line an interrupted run ends
    /// with (``ResumeHint``).
    private let arguments: [String]
    private let program: String
    /// Set by ``start(checkpointInterval:)`` when the output is a journalled file.
    private(set) var checkpointer: CollectionCheckpointer?

    private init(
        destination: CollectionOutput?, plan: ResumePlan<Settings>, inputs: CollectionInputs, rows: any TextOutput,
        settings: Settings, arguments: [String], program: String
    ) {
        self.arguments = arguments
        self.program = program
        self.destination = destination
        self.plan = plan
        self.inputs = inputs
        self.rows = rows
        self.settings = settings
    }

    /// The run over `paths` (taking from folders the files named with `extensions`) that
    /// `flags` and `settings` describe; `nil` when `--resume` finds the output already complete,
    /// which is then said on a terminal (`showProgress`).
    static func open(
        _ flags: CollectionOutputFlags, settings: Settings, paths: [String],
        extensions: Set<String> = ImageFileWalker.imageExtensions, context: CommandContext, showProgress: Bool
    ) throws -> CollectionRun? {
        let destination = try flags.output.map { path throws(OutputError) in
            try CollectionOutput(path: path, resume: flags.resume)
        }
        let file = destination?.resumable
        do {
            let plan =
                try file.map { try ResumePlan.make(for: $0, settings: settings, resume: flags.resume) } ?? .fresh
            if case .complete(_, let made) = plan, let file {
                try CollectionInputs.checkComplete(
                    made, paths: paths, extensions: extensions, shard: flags.collectionShard, output: file.path)
            }
            if let file, try plan.finishIfComplete(file, context: context, showProgress: showProgress) {
                file.close()
                return nil
            }
            var resuming: (Int?, JournalCheckpoint, String)?
            if case .resume(let header, let checkpoint, _) = plan, let file {
                resuming = (header.collectionSize, checkpoint, file.path)
            }
            let inputs = try CollectionInputs(
                paths: paths, extensions: extensions, shard: flags.collectionShard, resuming: resuming)
            return CollectionRun(
                destination: destination, plan: plan, inputs: inputs, rows: destination?.rows ?? context.stdout,
                settings: settings, arguments: context.arguments, program: context.program)
        } catch {
            file?.close()
            throw error
        }
    }

    /// Leaves the files as they are for a later `--resume`; after ``finish(_:)``, nothing is left to do.
    func close() { destination?.resumable?.close() }

    /// Continues the interrupted run's journal, or starts a new one, checkpointing at most once
    /// per `checkpointInterval`; the tally the interrupted run had reached (zero for a fresh run).
    func start(checkpointInterval: Duration) throws(OutputError) -> CollectionTally {
        guard let file = destination?.resumable else {
            // Written as it comes (standard output, a device, a pipe): nothing to continue, but
            // a Ctrl-C still says what it left and how a run can be continued.
            if !arguments.isEmpty {
                InterruptCleanup.announce(ResumeHint.unresumableLine(toStandardOutput: destination == nil))
            }
            return CollectionTally()
        }
        // From here on a Ctrl-C leaves a partial file and journal that --resume continues.
        if !arguments.isEmpty { InterruptCleanup.announce(ResumeHint.line(arguments: arguments, program: program)) }
        if case .resume(_, let checkpoint, let journalLength) = plan {
            try file.resume(atByte: checkpoint.bytes, journalLength: journalLength)
            checkpointer = CollectionCheckpointer(
                output: file, interval: checkpointInterval, inputs: inputs.done, digest: inputs.digest,
                lastPath: inputs.lastPath)
            return checkpoint.tally
        }
        try file.start(
            journalHeader: CollectionJournal<Settings>.line(
                CollectionJournal<Settings>.Header(settings: settings, collectionSize: inputs.collectionSize)))
        checkpointer = CollectionCheckpointer(output: file, interval: checkpointInterval)
        return CollectionTally()
    }

    /// The writer of the rows; it writes the table's header unless the run continues an output.
    func writer(format: OutputFormat, columns: FaceRecordColumns) -> any FaceRecordWriter {
        let writer = format.writer(columns: columns, output: rows)
        if case .fresh = plan { writer.writeHeader() }
        return writer
    }

    /// The error to stop with when a checkpoint could not be written; `nil` while they are.
    var checkpointFailure: OutputError? {
        checkpointer?.failure.map {
            OutputError($0.description + "; the rows before are kept: run again with --resume to continue")
        }
    }

    /// Ends a run that went through every input: the complete checkpoint and the rename, the
    /// commit of a special file, or a flush of standard output.
    func finish(_ tally: CollectionTally) throws(OutputError) {
        defer { InterruptCleanup.withdraw() }
        if let checkpointer {
            try checkpointer.finish(tally)
        } else if let stream = destination?.stream {
            try stream.commit()
        } else {
            rows.flush()
        }
    }
}
