import FaceKit
import FaceKitArguments

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one shard's output says about itself: its journal (`FILE.journal`, see
/// ``CollectionJournal``), whether `FILE.partial` is still there, `FILE`'s size, and whether a
/// running `facekit` holds the journal's lock. `facekit merge` and `facekit status` read one per
/// file given.
///
/// Reading takes a shared lock on the journal when no writer holds it, and keeps it until
/// ``close()``: a `facekit analyze` or `track` started on that output meanwhile is refused,
/// so the shard cannot change under a merge.
///
/// ```swift
/// let record = ShardRecord(output: "results/faces-2.csv")
/// record.shard?.description   // "2/4"
/// record.state                // .complete
/// ```
final class ShardRecord {
    /// How far a shard has got.
    enum State: Equatable {
        /// Every input done and `FILE` renamed into place, as the journal recorded it.
        case complete
        /// A `facekit` run holds the journal's lock.
        case running
        /// Not complete and not running: stopped, killed or cancelled; `--resume` continues it.
        case stopped
        /// Not a shard's output that can be checked; the reason names the file.
        case unusable(String)
    }

    /// `FILE`, the output.
    let output: String
    var journalPath: String { output + ".journal" }
    var partialPath: String { output + ".partial" }
    /// The options the shard was made with; `nil` when the journal could not be read.
    private(set) var settings: (any JournalSettings)?
    /// `--shard K/N`; `nil` without it, or without a journal.
    private(set) var shard: CollectionShard?
    /// The size of the collection the shard was cut from.
    private(set) var collectionSize: Int?
    /// The journal's last checkpoint.
    private(set) var checkpoint: JournalCheckpoint?
    private(set) var state: State = .stopped
    private var descriptor: Int32 = -1

    /// The path of the output a command-line argument names: `FILE` itself, or `FILE.journal` or
    /// `FILE.partial` (so that `results/faces-*` names each shard, finished or not).
    static func outputPath(_ argument: String) -> String {
        for suffix in [".journal", ".partial"] where argument.hasSuffix(suffix) && argument.count > suffix.count {
            return String(argument.dropLast(suffix.count))
        }
        return argument
    }

    init(output: String) {
        self.output = output
        state = read()
    }

    deinit { close() }

    /// Releases the journal's lock.
    func close() {
        guard descriptor >= 0 else { return }
        _ = closeJournal(descriptor)
        descriptor = -1
    }

    /// The inputs in this shard's share, once its journal is read.
    var shardSize: Int? {
        guard let shard, let collectionSize else { return nil }
        return shard.positions(inCollectionOf: collectionSize).count
    }

    /// `files` for `analyze`, `videos` for `track`.
    var inputNoun: String { settings is TrackSettings ? "videos" : "files" }

    /// `shard 2/4 (results/faces-2.csv)`, or the file alone when it is not known as a shard.
    var name: String { shard.map { "shard \($0) (\(output))" } ?? output }

    /// `120 of 250 files done`.
    var progressText: String {
        "\(checkpoint?.inputs ?? 0) of \(shardSize.map(String.init) ?? "?") \(inputNoun) done"
    }

    private func read() -> State {
        let opened: Int32
        // Never through a symbolic link: no facekit run makes one, --resume removes one found
        // there, and one planted there would show another shard's record as this one's.
        switch RegularFile.open(journalPath, O_RDONLY | O_NOFOLLOW) {
        case .success(let descriptor):
            opened = descriptor
        case .failure(let refusal):
            if refusal.code == ELOOP {
                return .unusable(
                    "\(journalPath): a symbolic link, which no facekit run makes: it is not read; "
                        + "run the shard again, or name the shard where its files are")
            }
            if refusal.code != ENOENT {
                return .unusable("\(journalPath): cannot read: \(refusal.reason)")
            }
            // A named pipe, a device or a folder given as a shard is that, not a missing file.
            if let reason = Self.notRegular(output) { return .unusable("\(output): \(reason)") }
            if fileSize(output) == nil && fileSize(partialPath) == nil {
                return .unusable("\(output): no such file, and no \(journalPath)")
            }
            return .unusable(
                "\(output): no \(journalPath), so it cannot be checked: written to standard output, by another "
                    + "facekit, or the journal was removed; run the shard again")
        }
        descriptor = opened
        var running = false
        if let code = JournalLock.take(opened, exclusive: false) {
            guard code == EWOULDBLOCK else {
                return .unusable("\(journalPath): cannot lock: \(systemErrorMessage(code))")
            }
            running = true
        }
        let lines: [ResumableFileOutput.JournalLine]
        do {
            lines = try ResumableFileOutput.journalLines(descriptor: opened, path: journalPath)
        } catch {
            return .unusable(error.description)
        }
        // Only a lock this reading holds is kept.
        if running { close() }
        var parsed: (settings: any JournalSettings, collectionSize: Int?, checkpoint: JournalCheckpoint?)?
        do throws(DamagedJournalLine) {
            parsed = try Self.parse(AnalyzeSettings.self, lines, path: journalPath)
            if parsed == nil { parsed = try Self.parse(TrackSettings.self, lines, path: journalPath) }
        } catch {
            return running ? .running : .unusable(error.description)
        }
        guard let parsed else {
            return running
                ? .running
                : .unusable("\(journalPath): not a journal of facekit analyze or track")
        }
        (settings, collectionSize, checkpoint) = parsed
        shard = parsed.settings.shard.flatMap(CollectionShard.init(argument:))
        if running { return .running }
        guard shard != nil else {
            return .unusable("\(output): made without --shard, so it is not part of a sharded output")
        }
        guard let checkpoint, checkpoint.complete else { return .stopped }
        // Complete, but the rename was not done: --resume finishes it.
        if fileSize(partialPath) != nil { return .stopped }
        guard let size = fileSize(output) else {
            if let reason = Self.notRegular(output) {
                return .unusable("\(output): \(reason), though \(journalPath) says \(name) completed; run it again")
            }
            return .unusable("\(output): missing, though \(journalPath) says \(name) completed; run it again")
        }
        guard size == checkpoint.bytes else {
            return .unusable(
                "\(output): \(size) bytes, but \(journalPath) says \(name) completed with \(checkpoint.bytes): "
                    + "the file changed since; run the shard again")
        }
        return .complete
    }

    /// The journal's header and last checkpoint, when `lines` are a journal of `S`'s command.
    private static func parse<S: JournalSettings>(
        _ type: S.Type, _ lines: [ResumableFileOutput.JournalLine], path: String
    ) throws(DamagedJournalLine)
        -> (settings: any JournalSettings, collectionSize: Int?, checkpoint: JournalCheckpoint?)?
    {
        guard case .run(let header, let checkpoint, _) = try CollectionJournal<S>.contents(lines, path: path) else {
            return nil
        }
        return (header.settings, header.collectionSize, checkpoint)
    }

    /// Why the file at `path` (a link followed) is not a shard's table, in ``RegularFile``'s words
    /// (`not a regular file (a named pipe)`, `is a folder`); `nil` when it is a regular file or
    /// there is nothing at `path`.
    private static func notRegular(_ path: String) -> String? {
        var info = stat()
        guard FilePathEncoding.withFileSystemRepresentation(path, { stat($0, &info) }) == 0 else { return nil }
        return RegularFile.refusal(info.st_mode)
    }

    /// The size of the regular file at `path`, `nil` when there is none.
    private func fileSize(_ path: String) -> UInt64? {
        var info = stat()
        guard FilePathEncoding.withFileSystemRepresentation(path, { stat($0, &info) }) == 0,
            (info.st_mode & S_IFMT) == S_IFREG
        else { return nil }
        return UInt64(info.st_size)
    }
}

#if canImport(Glibc)
    private func closeJournal(_ descriptor: Int32) -> Int32 { Glibc.close(descriptor) }
#else
    private func closeJournal(_ descriptor: Int32) -> Int32 { Darwin.close(descriptor) }
#endif
