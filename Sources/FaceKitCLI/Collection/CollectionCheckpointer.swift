/// Decides when `facekit analyze --output` (and `track`) makes its rows durable, and writes the
/// checkpoints of ``CollectionJournal`` through a ``ResumableFileOutput``.
///
/// After each input's rows are written, ``record(_:)`` counts it; a checkpoint follows when
/// `interval` has passed since the last one (at most one pair of syncs per interval however fast
/// the inputs go), and ``checkpointIfPending(_:)`` writes one when the run waits (an input taking
/// long), so a row is committed at most about `interval` after it was written. ``finish(_:)``
/// writes the complete checkpoint and renames the partial file into place. A write failure is
/// kept in ``failure``; the run should then stop.
///
/// ```swift
/// let checkpointer = CollectionCheckpointer(output: file, interval: .seconds(1))
/// checkpointer.record("photos/a.jpg"); checkpointer.checkpointIfDue(tally)
/// try checkpointer.finish(tally)
/// ```
final class CollectionCheckpointer {
    private let output: ResumableFileOutput
    private let interval: Duration
    private let clock = ContinuousClock()
    private var lastCheckpoint: ContinuousClock.Instant
    private var inputs: Int
    private var digest: PathsDigest
    private var lastPath: String?
    private var pending = false
    /// The first write failure; nothing more is written after it.
    private(set) var failure: OutputError?

    /// Continues after `inputs` inputs whose paths gave `digest` (0 and an empty digest for a
    /// fresh run).
    init(
        output: ResumableFileOutput, interval: Duration, inputs: Int = 0, digest: PathsDigest = PathsDigest(),
        lastPath: String? = nil
    ) {
        self.output = output
        self.interval = interval
        self.inputs = inputs
        self.digest = digest
        self.lastPath = lastPath
        lastCheckpoint = clock.now
    }

    /// Counts one more input done; its rows must already be written.
    func record(_ path: String) {
        inputs += 1
        digest.add(path)
        lastPath = path
        pending = true
    }

    /// Writes a checkpoint if inputs were recorded since the last one and `interval` has passed.
    func checkpointIfDue(_ tally: CollectionTally) {
        guard pending, clock.now - lastCheckpoint >= interval else { return }
        checkpoint(tally, complete: false)
    }

    /// Writes a checkpoint if inputs were recorded since the last one.
    func checkpointIfPending(_ tally: CollectionTally) {
        guard pending else { return }
        checkpoint(tally, complete: false)
    }

    /// Writes the complete checkpoint and renames the partial file over the output.
    func finish(_ tally: CollectionTally) throws(OutputError) {
        checkpoint(tally, complete: true)
        if let failure { throw failure }
        try output.commit()
    }

    private func checkpoint(_ tally: CollectionTally, complete: Bool) {
        guard failure == nil else { return }
        let record = JournalCheckpoint(
            inputs: inputs, bytes: output.bytesWritten, tally: tally, pathsDigest: digest, lastPath: lastPath,
            complete: complete)
        do {
            try output.checkpoint(JournalLines.line(record))
        } catch {
            failure = error
        }
        pending = false
        lastCheckpoint = clock.now
    }
}
