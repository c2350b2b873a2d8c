/// The inputs one run of `facekit analyze` (or `track`) works through: the walk of its paths (see
/// ``ImageFileWalker``), cut to its `--shard` (see ``CollectionShard``), less the inputs an
/// interrupted run already did when resuming.
///
/// With a shard, the whole walk is first counted (names only) to know where the shard starts and
/// ends; without, nothing is read ahead. Resuming, the inputs already done are walked again
/// (not analysed) and their paths' digest compared with the checkpoint's, so that a run never
/// continues over a collection that changed before the checkpoint.
///
/// ```swift
/// let inputs = try CollectionInputs(paths: ["photos/"], shard: CollectionShard(argument: "2/4"))
/// inputs.count          // the size of shard 2 of 4
/// for entry in inputs.remaining { ... }
/// ```
struct CollectionInputs {
    /// The walk, at the first input this run analyses.
    private var walk: ImageFileWalker.Iterator
    /// How many inputs the run has, including those done before a resume; `nil` without a shard
    /// (not counted).
    let count: Int?
    /// With a shard, the size of the whole collection, which fixes where shards are cut.
    let collectionSize: Int?
    /// The inputs done before a resume, the digest of their paths, and the last of them.
    let done: Int
    let digest: PathsDigest
    let lastPath: String?

    /// `extensions` are the file names taken from folders (images for `analyze`, videos for
    /// `track`); `resuming` is the collection size the interrupted run's journal header records,
    /// its last checkpoint, and the output's path for messages.
    init(
        paths: [String], extensions: Set<String> = ImageFileWalker.imageExtensions, shard: CollectionShard?,
        resuming: (collectionSize: Int?, checkpoint: JournalCheckpoint, output: String)? = nil,
        run: String = "the interrupted run"
    ) throws(OutputError) {
        let walk = ImageFileWalker(paths: paths, extensions: extensions)
        var positions: Range<Int>?
        if let shard {
            let size = walk.reduce(0) { count, _ in count + 1 }
            positions = shard.positions(inCollectionOf: size)
            collectionSize = size
        } else {
            collectionSize = nil
        }
        count = positions?.count
        self.walk = walk.makeIterator()
        for _ in 0..<(positions?.lowerBound ?? 0) { _ = self.walk.next() }
        var digest = PathsDigest()
        var lastPath: String?
        if let (resumedSize, checkpoint, output) = resuming {
            if resumedSize != collectionSize {
                throw OutputError(
                    "\(output): cannot resume: the collection has \(collectionSize ?? 0) files now, "
                        + "\(resumedSize ?? 0) when \(run) started; "
                        + "leave out --resume to start again")
            }
            var walked = 0
            for _ in 0..<checkpoint.inputs {
                guard let entry = self.walk.next() else { break }
                digest.add(entry.path)
                lastPath = entry.path
                walked += 1
            }
            guard digest == checkpoint.pathsDigest else {
                let now =
                    walked < checkpoint.inputs ? "this walk has only \(walked)" : "this walk with \(lastPath ?? "none")"
                throw OutputError(
                    "\(output): cannot resume: the first \(checkpoint.inputs) files are not those \(run) "
                        + "analysed (it ended with \(checkpoint.lastPath ?? "none"), \(now)); "
                        + "leave out --resume to start again")
            }
        }
        done = resuming?.checkpoint.inputs ?? 0
        self.digest = digest
        self.lastPath = lastPath
    }

    /// Refuses a complete output (``ResumePlan/complete(finishing:made:)``) whose inputs are not
    /// those `paths` walk to now: files before its last one changed, or files added after it.
    static func checkComplete(
        _ made: CompletedRun, paths: [String], extensions: Set<String>,
        shard: CollectionShard?, output: String
    ) throws(OutputError) {
        let inputs = try CollectionInputs(
            paths: paths, extensions: extensions, shard: shard,
            resuming: (made.collectionSize, made.checkpoint, output), run: "the run that made it")
        if let added = inputs.remaining.first(where: { _ in true }) {
            throw OutputError(
                "\(output): cannot resume: the collection has files the run that made it did not have "
                    + "(the first: \(added.path)); use another --output or drop --resume")
        }
    }

    /// The inputs left to analyse, read lazily.
    var remaining: some Sequence<ImageFileWalker.Entry> {
        IteratorSequence(walk).prefix(count.map { $0 - done } ?? Int.max)
    }
}
