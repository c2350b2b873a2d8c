import FaceKit
import FaceKitArguments

/// The flags of the commands that read live sources (``LiveInput``: `track`, `annotate`): how far
/// behind the stream's clock analysis may fall (``LiveDelay``), and how long a silent stream is
/// waited for.
struct LiveFlags: Sendable {
    var maxDelay = 1.0
    var stallTimeout = 10.0
    /// How long a stream may take to open (FFmpeg probes its first second of data).
    static let openTimeoutSeconds = 30.0

    init() {}

    /// The flags' definitions, bound to the group stored at `group` in `Command`.
    static func arguments<Command>(_ group: WritableKeyPath<Command, LiveFlags>) -> [ArgumentDefinition<Command>] {
        [
            .option(
                "max-delay", group.appending(path: \.maxDelay), valueName: "seconds",
                help: "Live sources: skip frames that lie further than this behind the stream's clock."),
            .option(
                "stall-timeout", group.appending(path: \.stallTimeout), valueName: "seconds",
                help: "Live sources: end the stream when it sends nothing for this long."),
        ]
    }

    func validate() throws(CommandError) {
        guard maxDelay > 0, maxDelay.isFinite else {
            throw CommandError(
                "The value '\(maxDelay.defaultValueDescription)' is invalid for '--max-delay <seconds>': it must be positive")
        }
        guard stallTimeout > 0, stallTimeout <= 3600 else {
            throw CommandError(
                "The value '\(stallTimeout.defaultValueDescription)' is invalid for '--stall-timeout <seconds>': "
                    + "it must be more than 0 and at most 3600")
        }
    }

    /// Opens `source`, a read that waits longer than `--stall-timeout` ending it as stalled. A
    /// sender may start after FaceKit: the open waits longer than a read.
    /// Frames of more than `maxPixels` pixels end the stream with an error, as photos are refused.
    func open(_ source: VideoReader.LiveSource, maxPixels: Int) throws(FaceKitError) -> VideoReader {
        try VideoReader(
            liveSource: source, timeoutMs: Int(stallTimeout * 1000),
            openTimeoutMs: Int(max(stallTimeout, Self.openTimeoutSeconds) * 1000), maxPixels: maxPixels)
    }

    /// What is said when `source` sent nothing for `--stall-timeout`.
    func stallMessage(source: String) -> String {
        "\(MessageText.escaped(source)): no data for \(stallTimeout.defaultValueDescription) s "
            + "(--stall-timeout): the stream stalled or stopped"
    }
}
