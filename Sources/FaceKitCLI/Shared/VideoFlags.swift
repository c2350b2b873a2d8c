import FaceKit
import FaceKitArguments

/// The flags of the commands that follow faces through video (`track`, `annotate`): how often
/// the detector runs and whether boxes and points are smoothed over time.
struct VideoFlags: Sendable {
    var detectionInterval = FaceTracker.defaultDetectionInterval
    var noSmoothing = false

    init() {}

    /// The flags' definitions, bound to the group stored at `group` in `Command`.
    static func arguments<Command>(_ group: WritableKeyPath<Command, VideoFlags>) -> [ArgumentDefinition<Command>] {
        [
            .option(
                "detection-interval", group.appending(path: \.detectionInterval), valueName: "frames",
                help: "Run the detector every nth video frame and follow faces by optical flow in between (1: detect on every frame)."),
            .flag(
                "no-smoothing", group.appending(path: \.noSmoothing),
                help: "Report each frame's measurement as is, without steadying boxes, landmarks and angles over time."),
        ]
    }

    func validate() throws(CommandError) {
        guard detectionInterval >= 1 else {
            throw CommandError(
                "The value '\(detectionInterval)' is invalid for '--detection-interval <frames>': it must be at least 1")
        }
    }

    /// A tracker for `detector` with these flags, for a video of which every `every`th frame is
    /// analysed.
    ///
    /// `--detection-interval` counts video frames, so that a face entering the picture is found
    /// as soon whatever `--every` is: the tracker, which counts analysed frames, detects on every
    /// `max(1, detectionInterval / every)`th of them. Every command that tracks makes its tracker
    /// here, so this is where the process's BLAS is set to one thread when the tracker
    /// re-identifies (``ProcessBLAS``).
    func tracker(
        detector: FaceDetector, configuration: TrackerConfiguration = TrackerConfiguration(), models: ModelLocator,
        reidentification: FaceTracker.Reidentification, every: Int = 1
    ) throws(FaceKitError) -> FaceTracker {
        let tracker = try FaceTracker(
            detector: detector, configuration: configuration, models: models, reidentification: reidentification,
            detectionInterval: max(1, detectionInterval / max(1, every)), smoothing: !noSmoothing)
        ProcessBLAS.configure(for: tracker)
        return tracker
    }
}

extension FaceTracker {
    /// The note `track` and `annotate` print when faces will not be re-identified by appearance,
    /// with the reason; `nil` when they will be, or when the user turned it off.
    var reidentificationNote: String? {
        guard let reason = reidentificationUnavailableReason else { return nil }
        return "note: re-identification by appearance is off, so faces that leave and come back get new IDs: " + reason
    }
}
