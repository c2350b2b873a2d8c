import Foundation

/// Finds faces in successive video frames and gives each a ``Face/trackingID`` that stays with
/// the same person: a ``FaceDetector`` followed by a ``BoxTracker``.
///
/// The options must have `isTrackingEnabled` set, as ML Kit asks; contours are refused with
/// tracking (``FaceDetectorOptions/validate()``). Frames are expected in playing order, with
/// their presentation time, which the tracker uses to predict motion across skipped frames.
/// Like the detector, a tracker is not thread-safe: one per video and thread.
///
/// Re-identification (``Reidentification``) keeps a face's ID when it comes back after leaving
/// the picture or after a gap longer than the tracker's survival window: it compares dlib's face
/// descriptor (dlib_face_recognition_resnet_model_v1.dat) of faces that overlap no track with
/// the faces lost recently (``BoxTracker``). By default it is on when that model is found and
/// off otherwise (``isReidentifying`` tells which); each descriptor costs a ResNet pass.
///
/// With classification on, eye-open probabilities are judged against each tracked face's own
/// recent openness (``VideoEyeClassifier``), so one person's blink reads as closed even when
/// their open eyes are narrower than most people's.
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
    /// Whether faces are re-identified by appearance (dlib's face descriptor).
    public enum Reidentification: Sendable, Equatable {
        /// On when the descriptor model is found, off (overlap and motion only) when it is not.
        case automatic
        /// On; creating the tracker fails when the model is missing.
        case required
        /// Off: IDs follow overlap and motion only, and a face lost for longer than
        /// ``TrackerConfiguration/maximumMissedFrames`` comes back with a new ID.
        case off
    }

    public var options: FaceDetectorOptions { detector.options }
    public var configuration: TrackerConfiguration { tracker.configuration }
    /// Whether this tracker re-identifies faces by appearance.
    public var isReidentifying: Bool { descriptorNetwork != nil }
    private let detector: FaceDetector
    private let descriptorNetwork: NativeFaceDescriptor?
    private var tracker: BoxTracker
    private var eyeClassifiers: [Int: VideoEyeClassifier] = [:]

    /// Validates `options` (tracking on, no contours), then loads the detector's models and, as
    /// `reidentification` says, the face descriptor model.
    public init(
        options: FaceDetectorOptions, configuration: TrackerConfiguration = TrackerConfiguration(),
        models: ModelLocator = ModelLocator(), reidentification: Reidentification = .automatic
    ) throws(FaceKitError) {
        guard options.isTrackingEnabled else {
            throw .invalidOption(
                name: "isTrackingEnabled", reason: "a FaceTracker gives tracking IDs only with isTrackingEnabled true")
        }
        detector = try FaceDetector(options: options, models: models)
        switch reidentification {
        case .off:
            descriptorNetwork = nil
        case .required:
            descriptorNetwork = try NativeFaceDescriptor(modelPath: models.path(for: .faceDescriptor))
        case .automatic:
            // A model that is found but unreadable is an error worth reporting, not a quiet "off".
            let path = try? models.path(for: .faceDescriptor)
            descriptorNetwork = try path.map { path throws(FaceKitError) in try NativeFaceDescriptor(modelPath: path) }
        }
        tracker = BoxTracker(configuration: configuration)
    }

    /// The faces in `image`, shown at `timestampMs`, ordered as ``FaceDetector/process(_:)``
    /// orders them, each with its tracking ID.
    public func process(_ image: FaceImage, timestampMs: Double) throws(FaceKitError) -> [Face] {
        let analysed = try detector.analyse(image)
        var faces = analysed.map(\.face)
        let boxes = faces.map(\.frame)
        let ids: [Int]
        if let descriptorNetwork {
            ids = try tracker.update(boxes: boxes, timestampMs: timestampMs) { (index) throws(FaceKitError) -> [Float]? in
                let shape = analysed[index].shape
                return shape.isPlausible ? try descriptorNetwork.descriptor(in: image, shape: shape) : nil
            }
        } else {
            ids = tracker.update(boxes: boxes, timestampMs: timestampMs)
        }
        for index in faces.indices { faces[index].trackingID = ids[index] }
        if options.classificationMode == .all {
            for index in faces.indices {
                eyeClassifiers[ids[index], default: VideoEyeClassifier()]
                    .refine(&faces[index], shape: analysed[index].shape, timestampMs: timestampMs)
            }
            // A face unseen for a whole window has no usable eye history left.
            eyeClassifiers = eyeClassifiers.filter { $0.value.lastTimestampMs >= timestampMs - EyeOpenLevel.window }
        }
        return faces
    }

    /// Forgets every face seen so far, for a new video; IDs are not reused.
    public func reset() {
        tracker.removeAllTracks()
        eyeClassifiers.removeAll()
    }
}
