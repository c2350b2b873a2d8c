import Foundation

/// Finds faces in successive video frames and gives each a ``Face/trackingID`` that stays with
/// the same person: a ``FaceDetector`` followed by a ``BoxTracker``.
///
/// The options must have `isTrackingEnabled` set, as ML Kit asks; contours are refused with
/// tracking (``FaceDetectorOptions/validate()``). Frames are expected in playing order, with
/// their presentation time, which the tracker uses to predict motion across skipped frames.
/// Like the detector, a tracker is not thread-safe: one per video and thread.
///
/// ```swift
/// var options = FaceDetectorOptions()
/// options.isTrackingEnabled = true
/// let tracker = try FaceTracker(options: options)
/// let video = try VideoReader(contentsOfFile: "clip.mp4")
/// while let frame = try video.next(), let image = frame.image {
///     for face in try tracker.process(image, timestampMs: frame.timestampMs) {
///         print(frame.index, face.trackingID!, face.frame)   // 0 0 (212.0, 80.0, 92.0, 92.0) ...
///     }
/// }
/// ```
public final class FaceTracker {
    public var options: FaceDetectorOptions { detector.options }
    public var configuration: TrackerConfiguration { tracker.configuration }
    private let detector: FaceDetector
    private var tracker: BoxTracker

    /// Validates `options` (tracking on, no contours), then loads the detector's models.
    public init(
        options: FaceDetectorOptions, configuration: TrackerConfiguration = TrackerConfiguration(),
        models: ModelLocator = ModelLocator()
    ) throws(FaceKitError) {
        guard options.isTrackingEnabled else {
            throw .invalidOption(
                name: "isTrackingEnabled", reason: "a FaceTracker gives tracking IDs only with isTrackingEnabled true")
        }
        detector = try FaceDetector(options: options, models: models)
        tracker = BoxTracker(configuration: configuration)
    }

    /// The faces in `image`, shown at `timestampMs`, ordered as ``FaceDetector/process(_:)``
    /// orders them, each with its tracking ID.
    public func process(_ image: FaceImage, timestampMs: Double) throws(FaceKitError) -> [Face] {
        var faces = try detector.process(image)
        let ids = tracker.update(boxes: faces.map(\.frame), timestampMs: timestampMs)
        for index in faces.indices { faces[index].trackingID = ids[index] }
        return faces
    }

    /// Forgets every face seen so far, for a new video; IDs are not reused.
    public func reset() { tracker.removeAllTracks() }
}
