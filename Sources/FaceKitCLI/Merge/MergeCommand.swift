import FaceKitArguments

/// `facekit merge`: joins the outputs of the shards of one collection (`analyze --shard` or
/// `track --shard`, with `--output`) into the table one unsharded run writes.
///
/// The shards are checked first (``ShardSet``): every one of 1/N to N/N given once, complete,
/// made with the same options, in one format, from the same collection. Any problem is reported,
/// one `facekit:` line each naming the file or shard, and nothing is written (exit 1). Otherwise
/// the shards' rows are written in shard order, which is the unsharded order, keeping only the
/// first CSV header; with `--output`, through a temporary file renamed into place.
///
/// ```sh
/// facekit merge --output faces.csv results/faces-*.csv
/// ```
struct MergeCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "merge",
            abstract: "Join the outputs of a collection's shards into the table one unsharded run writes.",
            discussion: """
                The files are the --output files of 'facekit analyze --shard' or 'facekit track --shard' runs, \
                in any order; their journals (FILE.journal) say which shard each is. Nothing is written, \
                and the exit status is 1, when a shard is missing, given twice, incomplete or still \
                running, or when the shards were made with different options or formats; \
                'facekit status' shows how far each shard is.
                """)
    }

    static var arguments: [ArgumentDefinition<MergeCommand>] {
        [
            .option(
                "output", \.output, valueName: "file",
                help: "Write to this file, replaced only once complete, instead of standard output."),
            .positional("file", \.files, help: "A shard's output (or its .journal or .partial file)."),
        ]
    }

    var output: String?
    var files: [String] = []

    init() {}

    func validate() throws(CommandError) {
        if output?.isEmpty == true { throw CommandError("The value '' is invalid for '--output <file>'") }
        if let output,
            OutputOverlap.replacedInput(output: ShardRecord.outputPath(output), among: files.map(ShardRecord.outputPath))
                != nil
        {
            throw CommandError(
                "'--output \(output)' is one of the shards to merge: write the merged table to another file")
        }
    }

    func run(_ context: CommandContext) throws -> ExitStatus {
        let shards = ShardSet(arguments: files)
        defer { shards.close() }
        guard shards.problems.isEmpty else {
            for problem in shards.problems { context.stderr.writeDiagnostic(problem) }
            context.stderr.writeDiagnostic("nothing merged")
            return .failure
        }
        let records = shards.records
        let csv = shards.format == "csv"
        if csv {
            let header = try TableFileCopy.firstLine(of: records[0].output)
            for record in records.dropFirst() {
                guard try TableFileCopy.firstLine(of: record.output) == header else {
                    throw OutputError(
                        "\(record.output): its CSV header differs from \(records[0].output)'s; nothing merged")
                }
            }
        }
        let file = try output.map { path throws(OutputError) in try OutputFile(path: path) }
        let sink: any TextOutput = file ?? context.stdout
        do throws(OutputError) {
            for (index, record) in records.enumerated() {
                let size = try TableFileCopy.copy(record.output, to: sink, skippingFirstLine: csv && index > 0)
                if size != record.checkpoint?.bytes {
                    throw OutputError(
                        "\(record.output): changed while it was merged (\(size) bytes read, "
                            + "\(record.checkpoint?.bytes ?? 0) recorded); nothing merged")
                }
            }
        } catch {
            file?.discard()
            throw error
        }
        if let file { try file.commit() } else { sink.flush() }
        return .success
    }
}
