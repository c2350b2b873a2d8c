import Foundation

/// The lines `facekit analyze --output FILE` and `facekit track --output FILE` keep in
/// `FILE.journal` (see ``ResumableFileOutput``), from which `--resume` knows where an interrupted
/// run stopped and whether it was the same run, and `facekit merge` and `facekit status` know
/// which shard a file is and whether it is complete.
///
/// Each line is one JSON object, keys sorted. The first describes the run: which command wrote it
/// (`journal`), the options that shape the output (``JournalSettings``: not `--jobs`, `--quiet` or
/// `--model-dir`), the paths, the facekit version and, with `--shard`, how many inputs the whole
/// collection had (`collection_size`). Each later line is a checkpoint, written once the partial
/// file is synced up to `bytes`: the first `inputs` inputs of the run (in walk order, within the
/// shard) are done and written, with their tally and a digest of their paths, which a resumed run
/// recomputes to check that it skips the same files. The last checkpoint of a finished run has
/// `complete` set; the journal is kept after the run completes, as the record of what made the
/// output, which `--resume` compares a later run with and `merge` and `status` read.
///
/// ```
/// {"collection_size":250,"journal":"facekit analyze","settings":{"classify":false,...,"shard":"2/4"},"version":1}
/// {"bytes":48210,"complete":false,"inputs":12,"last_path":"photos/b.jpg",
///  "paths_digest":"8c3f0e1d2a4b5c6d","tally":{"faces":34,"failures":3,"files":12}}
/// ```
enum CollectionJournal<S: JournalSettings> {
    typealias Settings = S
    typealias Checkpoint = JournalCheckpoint

    /// The first line.
    struct Header: Codable, Equatable, Sendable {
        var journal = S.journalName
        var version = 1
        var settings: S
        /// With `--shard`, the number of inputs in the whole collection, which fixes the cut.
        var collectionSize: Int?
    }

    /// What a journal holds: nothing, another command's or version's journal, or a run with its
    /// last checkpoint.
    enum Contents: Equatable {
        /// Empty (its only line torn).
        case none
        /// A first line of the shape every journal has (`journal` and `version`), but of another
        /// command or version: `facekit status` and `merge` try the other command's journal, and
        /// `--resume` refuses it as ``otherJournalReason``, as it refuses a damaged line.
        case otherJournal
        /// The header, the last checkpoint, and the journal's length up to that checkpoint (or to
        /// the header when there is none).
        case run(Header, Checkpoint?, validLength: UInt64)
    }

    static func line<Value: Encodable>(_ value: Value) -> String { JournalLines.line(value) }

    static func decode<Value: Decodable>(_ type: Value.Type, _ line: String) -> Value? {
        JournalLines.decode(type, line)
    }

    /// Reads the complete lines of the journal at `path` (a last line torn by a crash is already
    /// left out, see ``ResumableFileOutput/journalLines()``).
    ///
    /// A complete line that no run writes (not JSON of a header or a checkpoint, a count below 0,
    /// fewer inputs or bytes than the checkpoint before, a checkpoint after the complete one) is
    /// thrown as a ``DamagedJournalLine``: the journal was changed by something other than facekit,
    /// and guessing how far the run got could lose or repeat rows.
    static func contents(_ lines: [ResumableFileOutput.JournalLine], path: String) throws(DamagedJournalLine)
        -> Contents
    {
        guard let first = lines.first else { return .none }
        func damaged(_ index: Int, _ reason: String) -> DamagedJournalLine {
            DamagedJournalLine(path: path, line: index + 1, reason: reason)
        }
        guard let identity = decode(JournalIdentity.self, first.text) else {
            throw damaged(0, "not the first line of a facekit journal")
        }
        guard identity.journal == S.journalName, identity.version == 1 else { return .otherJournal }
        // Its command's, but settings this facekit cannot read: damaged, or another version's.
        guard let header = decode(Header.self, first.text) else {
            throw damaged(0, "a \(S.journalName) header this facekit cannot read, damaged or of another version")
        }
        if (header.collectionSize ?? 0) < 0 { throw damaged(0, "a collection size below 0") }
        var last: Checkpoint?
        var validLength = first.end
        for (index, line) in lines.enumerated().dropFirst() {
            guard let checkpoint = decode(Checkpoint.self, line.text) else { throw damaged(index, "not a checkpoint") }
            if !checkpoint.isPlausible { throw damaged(index, "a count below 0") }
            if let last {
                if last.complete { throw damaged(index, "a checkpoint after the one that completed the run") }
                if checkpoint.inputs < last.inputs || checkpoint.bytes < last.bytes {
                    throw damaged(index, "fewer inputs or bytes than line \(index)")
                }
            }
            last = checkpoint
            validLength = line.end
        }
        return .run(header, last, validLength: validLength)
    }

    /// Why `--resume` refuses ``Contents/otherJournal`` (as line 1 of a ``DamagedJournalLine``): a
    /// byte changed in the command's name or version, or another command's journal at this output's
    /// name, and no telling which run wrote the output.
    static var otherJournalReason: String {
        "not the first line of a \(S.journalName) journal: another command's or version's, or damaged"
    }

    /// The two keys every header has, whatever its command.
    private struct JournalIdentity: Decodable {
        var journal: String
        var version: Int
    }
}

/// Every journal line after the first: how far a run had got, durably.
struct JournalCheckpoint: Codable, Equatable, Sendable {
    /// The inputs done, counted from the first of the run (of the shard).
    var inputs: Int
    /// The partial file's size once their rows are written.
    var bytes: UInt64
    var tally: CollectionTally
    var pathsDigest: PathsDigest
    /// The path of the last input done, for messages.
    var lastPath: String?
    /// Set on the last checkpoint, once every input is done.
    var complete = false

    /// Whether every count is one a run can have written (none below 0).
    var isPlausible: Bool {
        inputs >= 0 && tally.files >= 0 && tally.faces >= 0 && tally.failures >= 0 && (tally.frames ?? 0) >= 0
            && (tally.tracks ?? 0) >= 0
    }
}

/// The JSON form of journal lines: one object per line, snake-case keys, sorted.
enum JournalLines {
    static func line<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain structs cannot fail.
        return String(decoding: try! encoder.encode(value), as: UTF8.self)
    }

    static func decode<Value: Decodable>(_ type: Value.Type, _ line: String) -> Value? {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try? decoder.decode(type, from: Data(line.utf8))
    }
}
