import FaceKitArguments

/// The flags of the commands that write one row per face over a collection (`analyze`, `track`):
/// the format, the 68 points' columns, the output file, `--resume` and `--shard`, defined and
/// checked once.
///
/// ```swift
/// var output = CollectionOutputFlags()
/// output.output = "faces.csv"; output.resume = true
/// try output.validate()
/// output.collectionShard   // nil: no --shard
/// ```
struct CollectionOutputFlags: Sendable {
    var format: OutputFormat = .csv
    /// `--points68`: dlib's 68 points in the table.
    var points68 = false
    var output: String?
    var resume = false
    var shard: String?

    init() {}

    /// The flags' definitions, bound to the group stored at `group` in `Command`; `resumeHelp` and
    /// `shardHelp` say what the command continues and what it shares out.
    static func arguments<Command>(
        _ group: WritableKeyPath<Command, CollectionOutputFlags>, resumeHelp: String, shardHelp: String
    ) -> [ArgumentDefinition<Command>] {
        [
            .option(
                "format", group.appending(path: \.format), valueName: "format",
                help: "Write one CSV row or one JSON object per face."),
            .flag(
                "points68", group.appending(path: \.points68),
                help: "Add dlib's 68 points: CSV columns x_0 ... x_67, y_0 ... y_67, or a points68 array in JSON Lines."),
            .option(
                "output", group.appending(path: \.output), valueName: "file",
                help: "Write to this file, replaced only once complete, instead of standard output."),
            .flag("resume", group.appending(path: \.resume), help: resumeHelp),
            .option("shard", group.appending(path: \.shard), valueName: "k/n", help: shardHelp),
        ]
    }

    func validate() throws(CommandError) {
        if output?.isEmpty == true { throw CommandError("The value '' is invalid for '--output <file>'") }
        if let shard, CollectionShard(argument: shard) == nil {
            throw CommandError(
                "The value '\(shard)' is invalid for '--shard <k/n>': "
                    + "it must be two whole numbers k/n with 1 <= k <= n, as in 2/4")
        }
        if resume && output == nil {
            throw CommandError("'--resume' needs '--output <file>': only a file output can be continued")
        }
    }

    /// Refuses an `--output` that would replace one of `inputs` or an existing photo or video
    /// (``OutputOverlap/tableProblem(option:output:inputs:)``), before anything is written.
    func validate(inputs: [String]) throws(CommandError) {
        if let output, let problem = OutputOverlap.tableProblem(option: "output", output: output, inputs: inputs) {
            throw CommandError(problem)
        }
    }

    /// The share of the collection to work through, from `--shard`.
    var collectionShard: CollectionShard? { shard.flatMap(CollectionShard.init(argument:)) }
}
