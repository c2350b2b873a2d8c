import Foundation
import FaceKitArguments

/// `facekit status`: how far each shard of a collection is, so that a user sees what to run
/// again before `facekit merge`.
///
/// One line per shard on standard output, in shard order, with the shards none of the files is
/// listed as missing; then, on standard error, every reason `facekit merge` would refuse, one
/// `facekit:` line each. The exit status is 0 when the shards can be merged, 1 otherwise.
///
/// ```
/// shard  done                failed  state     file
/// 1/4    250 of 250 files    3       complete  results/faces-1.csv
/// 2/4    120 of 250 files    0       stopped   results/faces-2.csv
/// 3/4    0 of 250 files      0       running   results/faces-3.csv
/// 4/4    -                   -       missing   -
/// ```
struct StatusCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "status",
            abstract: "Show how far each shard of a collection is, and whether they can be merged.",
            discussion: """
                The files are the --output files of 'facekit analyze --shard' or 'facekit track --shard' runs \
                (or their .journal or .partial files, which name a shard that has not finished), in any \
                order. A shard is complete, running (a facekit run holds its journal), stopped (run it \
                again with --resume), missing, or unusable. The exit status is 0 when 'facekit merge' \
                would merge them, 1 otherwise.
                """)
    }

    static var arguments: [ArgumentDefinition<StatusCommand>] {
        [.positional("file", \.files, help: "A shard's output (or its .journal or .partial file).")]
    }

    var files: [String] = []

    init() {}

    func run(_ context: CommandContext) throws -> ExitStatus {
        let shards = ShardSet(arguments: files)
        defer { shards.close() }
        var rows: [[String]] = []
        for record in shards.records {
            let known = record.settings != nil
            rows.append([
                record.shard?.description ?? "?",
                known ? record.progressText.replacingOccurrences(of: " done", with: "") : "-",
                known ? String(record.checkpoint?.tally.failures ?? 0) : "-",
                Self.stateName(record.state),
                MessageText.escaped(record.output),
            ])
        }
        for shard in shards.missing { rows.append([shard.description, "-", "-", "missing", "-"]) }
        // Shards by number, then the files that are not known shards, as given.
        let ordered = rows.enumerated().sorted { a, b in
            (Self.order(a.element[0]), a.offset) < (Self.order(b.element[0]), b.offset)
        }.map(\.element)
        context.stdout.write(Self.table([["shard", "done", "failed", "state", "file"]] + ordered))
        context.stdout.flush()
        for problem in shards.problems { context.stderr.writeDiagnostic(problem) }
        return shards.problems.isEmpty ? .success : .failure
    }

    static func stateName(_ state: ShardRecord.State) -> String {
        switch state {
        case .complete: "complete"
        case .running: "running"
        case .stopped: "stopped"
        case .unusable: "unusable"
        }
    }

    private static func order(_ shard: String) -> Int { CollectionShard(argument: shard)?.number ?? Int.max }

    /// Rows as left-aligned columns two spaces apart, the last column unpadded.
    static func table(_ rows: [[String]]) -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ") + "\n"
        }.joined()
    }
}
