/// How forgiving a `BoxTracker` is: how much overlap makes a match, how long a track waits
/// for a face that was not detected, and how re-identification by appearance decides.
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
    public var velocitySmoothing: Double = 0.2

    /// How long, in milliseconds of video since it was last seen, a dropped track can still be
    /// re-identified by appearance (when the tracker is given face descriptors). 10 s covers a
    /// person leaving the picture for a moment or turning away; longer windows risk lending an
    /// old ID to a look-alike.
    public var reidentificationWindowMs: Double = 10_000
    /// Largest Euclidean distance between face descriptors for a detection to take an old track's
    /// ID. dlib calls 0.6 "the same person"; 0.5 is stricter, so two different people are rarely
    /// merged (an extra ID is cheaper than one ID shared by two people).
    public var maximumDescriptorDistance: Double = 0.5
    /// A matched track takes a fresh descriptor of its face every this many of its detections
    /// (frames where it was only followed by optical flow do not count: with ``FaceTracker``'s
    /// detector on every 5th frame, 10 is every 50 frames), so its appearance follows turns and
    /// lighting; each descriptor costs a ResNet pass (~tens of ms).
    public var descriptorRefreshFrames: Int = 10
    /// Descriptors kept per track (the oldest is dropped first); a detection is compared with the
    /// closest of them.
    public var descriptorsPerTrack: Int = 8

    public init() {}

    /// A configuration with the given values; see the properties for their meaning.
    public init(minimumOverlap: Double = 0.2, maximumMissedFrames: Int = 30, velocitySmoothing: Double = 0.2) {
        self.minimumOverlap = minimumOverlap
        self.maximumMissedFrames = maximumMissedFrames
        self.velocitySmoothing = velocitySmoothing
    }
}
