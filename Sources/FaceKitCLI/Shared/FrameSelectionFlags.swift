import FaceKitArguments

/// The flags that choose which frames of a video are analysed, for `track` and `annotate`:
/// `--every`, `--start` and `--end`, as ``FrameSampler`` applies them.
///
/// ```swift
/// var frames = FrameSelectionFlags()
/// frames.every = 5
/// frames.start = 1
/// frames.sampler   // FrameSampler(every: 5, startMs: 1000, endMs: nil)
/// ```
struct FrameSelectionFlags: Sendable {
    var every = 1
    var start = 0.0
    var end: Double?

    init() {}

    /// The flags' definitions, bound to the group stored at `group` in `Command`.
    static func arguments<Command>(_ group: WritableKeyPath<Command, FrameSelectionFlags>)
        -> [ArgumentDefinition<Command>]
    {
        [
            .option(
                "every", group.appending(path: \.every), valueName: "n",
                help: "Analyse every nth frame, counted from the first in range."),
            .option(
                "start", group.appending(path: \.start), valueName: "seconds",
                help: "Skip the frames shown before this time."),
            .option(
                "end", group.appending(path: \.end), valueName: "seconds",
                help: "Stop at the first frame shown at or after this time."),
        ]
    }

    func validate() throws(CommandError) {
        guard every >= 1 else {
            throw CommandError("The value '\(every)' is invalid for '--every <n>': it must be at least 1")
        }
        guard start >= 0 else {
            throw CommandError(
                "The value '\(start.defaultValueDescription)' is invalid for '--start <seconds>': it must not be negative"
            )
        }
        if let end, end <= start {
            throw CommandError(
                "The value '\(end.defaultValueDescription)' is invalid for '--end <seconds>': it must be later than --start (\(start.defaultValueDescription))"
            )
        }
    }

    /// A fresh sampler for one video.
    var sampler: FrameSampler {
        FrameSampler(every: every, startMs: start > 0 ? start * 1000 : nil, endMs: end.map { $0 * 1000 })
    }
}
