import FaceKit
import FaceKitArguments
import Foundation

/// The flags of the commands that analyse photos on several threads (`analyze`, `group`,
/// `report`): how many workers, and how large an image each may read. One definition, checked
/// once, so that every command says the same about the same mistake.
///
/// The group also makes the process-wide decision that goes with its commands' photo queue
/// (``configureBLAS()``, through ``ProcessBLAS``).
///
/// ```swift
/// var workers = WorkerFlags()
/// workers.jobs = 4
/// try workers.validate()
/// workers.configureBLAS()   // one BLAS thread per product
/// ```
struct WorkerFlags: Sendable {
    var jobs = UsableCores.count
    var maxPixels = FaceImage.defaultMaxPixels

    init() {}

    /// The largest `--jobs`: 4 workers per core this process may use (``UsableCores``).
    ///
    /// Each worker is a thread with its own detector (its own YuNet networks; the 68-point model is shared),
    /// and the analysis is CPU-bound, so workers beyond the cores add memory, not speed. A few more
    /// than the cores can still help when reading the photos waits (a network file system, a slow
    /// disk), and 4 per core leaves room for that while keeping memory bounded by the machine's
    /// size: `--jobs 100000` would have gone for about 15 GB of detectors before any analysis.
    static var maximumJobs: Int { 4 * UsableCores.count }

    /// `--jobs`, bound to the group stored at `group` in `Command`; `help` says what a worker does
    /// in that command. Apart from `--max-pixels`, so that each command keeps its own order in
    /// its help.
    static func jobsArgument<Command>(_ group: WritableKeyPath<Command, WorkerFlags>, help: String)
        -> ArgumentDefinition<Command>
    {
        .option("jobs", group.appending(path: \.jobs), valueName: "n", help: help)
    }

    /// `--max-pixels`, bound to the group stored at `group` in `Command`.
    static func maxPixelsArgument<Command>(_ group: WritableKeyPath<Command, WorkerFlags>)
        -> ArgumentDefinition<Command>
    {
        .option(
            "max-pixels", group.appending(path: \.maxPixels), valueName: "n",
            help: "Refuse images with more pixels than this.")
    }

    func validate() throws(CommandError) {
        guard jobs >= 1 else {
            throw CommandError("The value '\(jobs)' is invalid for '--jobs <n>': it must be at least 1")
        }
        guard jobs <= Self.maximumJobs else {
            throw CommandError(
                "The value '\(jobs)' is invalid for '--jobs <n>': it must be at most \(Self.maximumJobs), "
                    + "4 per core (\(UsableCores.count) usable here); "
                    + "more workers than cores only add memory")
        }
        try Self.validate(maxPixels: maxPixels)
    }

    /// Checks a `--max-pixels` value; also for `annotate`, which reads images one at a time.
    static func validate(maxPixels: Int) throws(CommandError) {
        guard maxPixels > 0 else {
            throw CommandError(
                "The value '\(maxPixels)' is invalid for '--max-pixels <n>': it must be a positive number of pixels")
        }
    }

    /// Gives each BLAS product one thread for the ``PhotoQueue`` these flags' commands run: N
    /// workers running dlib's networks then use N cores rather than asking for N x cores threads,
    /// and one worker leaves the second core to the thread decoding the next photo
    /// (``ProcessBLAS/configureForPhotos()``). Call it before the workers start.
    func configureBLAS() { ProcessBLAS.configureForPhotos() }
}
