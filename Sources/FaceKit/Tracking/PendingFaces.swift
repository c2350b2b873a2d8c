/// The faces of a frame that a ``FaceTracker`` is still describing
/// (``FaceTracker/processInBackground(_:timestampMs:)``): reading ``faces()`` waits for them.
///
/// ```swift
/// let pending = try tracker.processInBackground(image, timestampMs: 40)   // returns once tracked
/// // ... the next frames are given to the tracker meanwhile
/// for face in try pending.faces() { print(face.trackingID!) }
/// ```
public final class PendingFaces: Sendable {
    private let result: Pending<Result<[Face], FaceKitError>>

    init(_ result: Pending<Result<[Face], FaceKitError>>) {
        self.result = result
    }

    /// Whether ``faces()`` would return without waiting.
    public var isReady: Bool { result.isReady }

    /// The frame's faces, as ``FaceTracker/process(_:timestampMs:)`` gives them, waiting for them;
    /// throws what describing them threw.
    public func faces() throws(FaceKitError) -> [Face] { try result.value.get() }
}
