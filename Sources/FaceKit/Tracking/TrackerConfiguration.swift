/// How forgiving a ``BoxTracker`` is: how much overlap makes a match and how long a track waits
/// for a face that was not detected.
///
/// The defaults suit frames analysed a few dozen milliseconds apart; with sparse sampling
/// (`--every 10`), motion between analysed frames is larger and ``minimumOverlap`` may need to
/// come down.
///
/// ```swift
/// var configuration = TrackerConfiguration()
/// configuration.maximumMissedFrames = 60   // keep IDs through a two-second occlusion at 30 fps
/// ```
public struct TrackerConfiguration: Sendable, Equatable {
    /// Smallest intersection over union between a track's predicted (or last seen) box and a
    /// detection for the two to be the same face.
    public var minimumOverlap: Double = 0.2
    /// Analysed frames in a row a track may go undetected (occlusion, a turned head, a detector
    /// miss) before it is dropped; a face seen after that gets a new ID. 30 is about one second
    /// of video analysed frame by frame, enough for a person walking behind another.
    public var maximumMissedFrames: Int = 30
    /// Weight of the newest measurement in the smoothed velocity, in (0, 1]: lower values
    /// steady the prediction against the detector's jitter, higher ones follow turns sooner.
    public var velocitySmoothing: Double = 0.5

    public init() {}

    /// A configuration with the given values; see the properties for their meaning.
    public init(minimumOverlap: Double = 0.2, maximumMissedFrames: Int = 30, velocitySmoothing: Double = 0.5) {
        self.minimumOverlap = minimumOverlap
        self.maximumMissedFrames = maximumMissedFrames
        self.velocitySmoothing = velocitySmoothing
    }
}
