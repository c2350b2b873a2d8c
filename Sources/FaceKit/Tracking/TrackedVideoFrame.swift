/// One analysed video frame and its faces, each with its final tracking ID: what
/// ``FaceTracker/frames(of:)`` yields and ``FaceTracker/track(_:index:timestampMs:)`` hands back.
///
/// A final ID is the number of the face's person in the video: 0, 1, 2... in order of
/// appearance, one ID for the tracks of one person seen in different shots, and it never
/// changes. ``FaceTracker/process(_:timestampMs:)`` gives faces with provisional IDs instead
/// (``FaceTracker/videoTrackIDs()`` maps them to the final ones).
///
/// ```swift
/// for try await frame in try FaceTracker(options: options).frames(of: VideoReader(contentsOfFile: "clip.mp4")) {
///     print(frame.index, frame.timestampMs, frame.faces.count)   // 0 0.0 2 ...
/// }
/// ```
public struct TrackedVideoFrame: Sendable, Equatable {
    /// The frame's 0-based index in the video (``VideoReader/Frame/index``).
    public var index: Int
    /// When the frame is shown, in milliseconds from the start of the video.
    public var timestampMs: Double
    /// The faces, ordered as ``FaceDetector/process(_:)-4y4vc`` orders them, each with its final
    /// ``Face/trackingID``.
    public var faces: [Face]

    public init(index: Int, timestampMs: Double, faces: [Face]) {
        self.index = index
        self.timestampMs = timestampMs
        self.faces = faces
    }
}
