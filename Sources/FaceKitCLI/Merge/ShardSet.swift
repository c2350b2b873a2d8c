import FaceKit
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The shards of one sharded output, read from the files given to `facekit merge` or
/// `facekit status`, in shard order, with every reason they cannot be merged yet.
///
/// Shards merge when each of 1/N to N/N is given exactly once, each is complete (its journal
/// says so, no `FILE.partial` is left, `FILE` has the size the journal recorded, no run holds its
/// lock), and all were made by the same command with the same options (`--shard` aside), in one
/// format, from a collection of the same size. Each problem is one line naming the file or shard:
///
/// ```
/// shard 3/4 is missing: none of the files given is its output
/// shard 2/4 (results/faces-2.csv) is incomplete: 120 of 250 files done; run it again with --resume
/// results/faces-9.csv: made with other options than results/faces-1.csv (it: --landmarks; results/faces-1.csv: no --landmarks)
/// ```
struct ShardSet {
    /// One record per output given (`FILE`, `FILE.journal` and `FILE.partial` name the same
    /// one), known shards first in shard order, then the others as given.
    let records: [ShardRecord]
    /// The shards of 1/N to N/N that no file given is, N from the lowest shard given.
    let missing: [CollectionShard]
    /// What makes two spellings of one output the same shard (`results/faces-1.csv`,
    /// `./results//faces-1.csv`, a link to it): the device and inode of the output or, before it
    /// exists, of its journal; the path with `.`, `..` and doubled slashes resolved otherwise.
    static func identity(ofOutput path: String) -> String {
        for candidate in [path, path + ".journal"] {
            var info = stat()
            if FilePathEncoding.withFileSystemRepresentation(candidate, { stat($0, &info) }) == 0 {
                return "\(info.st_dev):\(info.st_ino)"
            }
        }
        return (path as NSString).standardizingPath
    }

    /// Why the shards cannot be merged, one line each; empty when they can.
    let problems: [String]

    init(arguments: [String]) {
        var seen = Set<String>()
        let outputs = arguments.map(ShardRecord.outputPath).filter { seen.insert(Self.identity(ofOutput: $0)).inserted }
        let given = outputs.map(ShardRecord.init(output:))
        let known = given.filter { $0.shard != nil && $0.settings != nil }.sorted { $0.shard!.number < $1.shard!.number }
        records = known + given.filter { $0.shard == nil || $0.settings == nil }

        var problems: [String] = []
        for record in records {
            switch record.state {
            case .complete: break
            case .unusable(let reason): problems.append(reason)
            case .running:
                problems.append(
                    "\(record.name) is still being written: \(record.journalPath) is locked by a running facekit")
            case .stopped:
                if record.checkpoint?.complete == true {
                    problems.append(
                        "\(record.name) is incomplete: \(record.partialPath) is still there (the run stopped before "
                            + "renaming it); run it again with --resume to finish")
                } else {
                    problems.append(
                        "\(record.name) is incomplete: \(record.progressText); run it again with --resume")
                }
            }
        }
        guard let reference = known.first, let referenceShard = reference.shard, let referenceSettings = reference.settings
        else {
            missing = []
            self.problems = problems
            return
        }
        var numbers: [Int: ShardRecord] = [:]
        for record in known {
            let shard = record.shard!
            if record !== reference, let differences = record.settings!.shardDifferences(from: referenceSettings) {
                problems.append(Self.difference(record, reference, then: differences.then, now: differences.now))
            }
            if shard.count != referenceShard.count {
                problems.append(
                    "\(record.output) is shard \(shard), but \(reference.output) is shard \(referenceShard): "
                        + "parts of different splits")
                continue
            }
            if let size = record.collectionSize, let referenceSize = reference.collectionSize, size != referenceSize {
                problems.append(
                    "\(record.output): cut from a collection of \(size) \(record.inputNoun), \(reference.output) from "
                        + "\(referenceSize): the collection changed between the shards; run them again")
            }
            if let earlier = numbers[shard.number] {
                problems.append("shard \(shard) is given twice: \(earlier.output) and \(record.output)")
            } else {
                numbers[shard.number] = record
            }
        }
        missing = (1...referenceShard.count).filter { numbers[$0] == nil }.map {
            CollectionShard(argument: "\($0)/\(referenceShard.count)")!
        }
        for shard in missing {
            problems.append(
                "shard \(shard) is missing: none of the files given is its output (name an unfinished shard by "
                    + "its .journal or .partial file)")
        }
        self.problems = problems
    }

    /// The shards' format, `csv` or `jsonl`, once they can be merged.
    var format: String? { records.first?.settings?.format }

    /// Releases the journals' locks.
    func close() {
        for record in records { record.close() }
    }

    /// The line for a shard made otherwise than the reference: by another command, in another
    /// format, or with other options. `then` are the reference's phrases, `now` the shard's.
    private static func difference(_ record: ShardRecord, _ reference: ShardRecord, then: [String], now: [String])
        -> String
    {
        let settings = record.settings!
        let referenceSettings = reference.settings!
        if type(of: settings).journalName != type(of: referenceSettings).journalName {
            return "\(record.output): written by \(type(of: settings).journalName), "
                + "but \(reference.output) by \(type(of: referenceSettings).journalName)"
        }
        if settings.format != referenceSettings.format {
            return "mixed formats: \(reference.output) is \(formatName(referenceSettings.format)), "
                + "\(record.output) is \(formatName(settings.format))"
        }
        return "\(record.output): made with other options than \(reference.output) "
            + "(it: \(now.joined(separator: ", ")); \(reference.output): \(then.joined(separator: ", ")))"
    }

    static func formatName(_ format: String) -> String { format == "jsonl" ? "JSON Lines" : "CSV" }
}
