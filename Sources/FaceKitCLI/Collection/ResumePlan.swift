import FaceKitArguments

/// What `facekit analyze --output FILE` (or `track`) does with what an earlier run left next to `FILE`.
///
/// Without `--resume` every run is ``fresh``: a partial file and journal from an earlier run are
/// replaced. With `--resume`:
///
/// | found | plan |
/// |---|---|
/// | a journal with checkpoints, for the same settings | ``resume(_:_:journalLength:)`` from the last checkpoint |
/// | a complete journal line that no run writes (``DamagedJournalLine``) | refused (a runtime failure), naming the line |
/// | a first line of another command's or version's journal | refused as a damaged line 1, as `status` and `merge` refuse it |
/// | a journal of a stopped run for other settings | refused, naming the options that differ (a usage error) |
/// | a journal of a complete run for other settings, and `FILE` | refused, naming the options that differ (a usage error) |
/// | a checkpoint, but `FILE.partial` missing or shorter than it records | refused (a runtime failure) |
/// | a journal without checkpoints, or no journal and no `FILE` | ``fresh``: nothing was committed |
/// | no journal (or an empty one), no partial file, and `FILE` | refused (a usage error): nothing records what made `FILE` |
/// | a journal whose last checkpoint is complete, and `FILE` of the size it records | ``complete``, after finishing the rename if a crash came between |
/// | a journal whose last checkpoint is complete, and `FILE` of another size | refused (a usage error): `FILE` was written since by something else |
/// | a complete journal, but neither `FILE` nor `FILE.partial` | ``fresh``: the output was deleted |
///
/// A ``complete(finishing:made:)`` plan still has its inputs compared with those the journal
/// records (``CollectionRun``): a collection that gained or lost files since is refused too.
///
/// ```swift
/// try ResumePlan.make(for: file, settings: settings, resume: true)   // .resume(header, checkpoint, ...)
/// ```
enum ResumePlan<Settings: JournalSettings>: Equatable {
    case fresh
    case resume(CollectionJournal<Settings>.Header, JournalCheckpoint, journalLength: UInt64)
    /// `FILE` is complete; `finishing` holds the partial file's length and the journal's when the
    /// interrupted run had only the rename left to do; `made` is what the journal records of the
    /// run that made it (its collection size and complete checkpoint), to compare the inputs with.
    case complete(finishing: (bytes: UInt64, journalLength: UInt64)?, made: CompletedRun)

    static func make(for file: ResumableFileOutput, settings: Settings, resume: Bool) throws -> ResumePlan {
        guard resume else { return .fresh }
        let contents = try CollectionJournal<Settings>.contents(try file.journalLines(), path: file.journalPath)
        if contents == .otherJournal {
            throw DamagedJournalLine(path: file.journalPath, line: 1, reason: CollectionJournal<Settings>.otherJournalReason)
        }
        guard case .run(let header, let checkpoint, let journalLength) = contents else {
            guard file.partialSize == nil && file.outputExists else { return .fresh }
            throw CommandError(
                "--resume: \(file.path) has no \(file.journalPath) recording the inputs and options it was made with "
                    + "(written without --output, by an earlier facekit, or its journal removed), "
                    + "so it may not be this run's; use another --output or drop --resume")
        }
        let complete = checkpoint?.complete == true
        // A complete run's output deleted since: nothing is kept, whatever made it.
        if complete && file.partialSize == nil && !file.outputExists { return .fresh }
        if header.settings != settings {
            let (then, now) = settings.differences(from: header.settings)
            if complete {
                throw CommandError(
                    "--resume: \(file.path) was made with \(then.joined(separator: ", ")); this run asks "
                        + "\(now.joined(separator: ", ")); use another --output or drop --resume")
            }
            throw CommandError(
                "--resume: \(file.path) was started with other options "
                    + "(interrupted run: \(then.joined(separator: ", ")); this run: \(now.joined(separator: ", "))); "
                    + "give the options of the interrupted run, or leave out --resume to start again")
        }
        guard let checkpoint else { return .fresh }
        let made = CompletedRun(collectionSize: header.collectionSize, checkpoint: checkpoint)
        guard let size = file.partialSize, size >= checkpoint.bytes else {
            if checkpoint.complete && file.partialSize == nil {
                if let written = file.outputSize, written != checkpoint.bytes {
                    throw CommandError(
                        "--resume: \(file.path) is not the file \(file.journalPath) records (\(written) bytes, "
                            + "it records \(checkpoint.bytes)): it was written since by something else; "
                            + "use another --output or drop --resume")
                }
                return .complete(finishing: nil, made: made)
            }
            throw OutputError(
                "\(file.path): cannot resume: \(file.partialPath) is missing or shorter than \(file.journalPath) "
                    + "records; leave out --resume to start again")
        }
        if checkpoint.complete { return .complete(finishing: (checkpoint.bytes, journalLength), made: made) }
        return .resume(header, checkpoint, journalLength: journalLength)
    }

    /// Ends a run whose plan is ``complete(finishing:)``: finishes the rename if only that was
    /// left, and says so on a terminal; `false` for any other plan, which has work to do.
    func finishIfComplete(_ file: ResumableFileOutput, context: CommandContext, showProgress: Bool) throws(OutputError)
        -> Bool
    {
        guard case .complete(let finishing, _) = self else { return false }
        if let finishing {
            try file.resume(atByte: finishing.bytes, journalLength: finishing.journalLength)
            try file.commit()
        } else if file.keepsJournal {
            file.close()
        } else {
            file.discard()
        }
        if showProgress {
            context.stderr.write(MessageText.escaped("\(file.path) is already complete: nothing to resume") + "\n")
        }
        return true
    }

    static func == (left: ResumePlan, right: ResumePlan) -> Bool {
        switch (left, right) {
        case (.fresh, .fresh): true
        case (.resume(let a, let b, let c), .resume(let x, let y, let z)): a == x && b == y && c == z
        case (.complete(let a, let m), .complete(let b, let n)):
            a?.bytes == b?.bytes && a?.journalLength == b?.journalLength && m == n
        default: false
        }
    }
}

/// What the journal of a complete run records of its inputs: the collection's size (with
/// `--shard`) and the complete checkpoint, with the digest of every input's path.
struct CompletedRun: Equatable {
    var collectionSize: Int?
    var checkpoint: JournalCheckpoint
}
