import Synchronization

/// Runs a tracker's ``FaceReporter`` on a thread of its own, so that one frame's faces are
/// described (smoothing, head pose, landmarks, probabilities, quality: about a sixth of a
/// frame's work) while the tracker follows the next frame's.
///
/// The frames are described one at a time, in the order given, on one serial queue (the
/// reporter's smoothing carries from frame to frame), so the faces are the same as if described
/// in line. At most ``maximumWaiting`` frames are queued: past that, ``report(_:)`` waits, so
/// that frames do not pile up in memory.
final class ReportingWorker: Sendable {
    /// Frames queued or being described at most, before ``report(_:)`` waits.
    static let maximumWaiting = 4

    /// Used only on `queue`, so its lock is never contended.
    private let reporter: Mutex<FaceReporter>
    private let queue = BoundedSerialQueue(label: "FaceKit.ReportingWorker", limit: ReportingWorker.maximumWaiting)

    init(_ reporter: FaceReporter) {
        self.reporter = Mutex(reporter)
    }

    /// Starts describing `frame`'s faces.
    func report(_ frame: TrackedFrame) -> PendingFaces {
        let pending = Pending<Result<[Face], FaceKitError>>()
        queue.async { [self] in
            pending.fulfil(reporter.withLock { reporter in
                Result { () throws(FaceKitError) in try reporter.faces(of: frame) }
            })
        }
        return PendingFaces(pending)
    }

    /// Forgets every face, for a new video, once the frames given so far are described.
    func reset() {
        queue.sync { reporter.withLock { $0.reset() } }
    }

    /// Waits until every frame given so far is described.
    func waitForAll() {
        queue.sync {}
    }
}
