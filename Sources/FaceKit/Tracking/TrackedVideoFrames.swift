import Dispatch
import Synchronization

extension FaceTracker {
    /// Every frame of `video` with its faces, each face with its final tracking ID, as an
    /// asynchronous sequence: a video file read to its end, or a live source
    /// (``VideoReader/init(liveSource:timeoutMs:openTimeoutMs:maxPixels:)``) until it ends.
    ///
    /// The tracker starts a new video (its IDs from 0) and works through the frames as they are
    /// asked for, on a queue of the sequence's own (off the caller's actor, and off the threads
    /// that tasks share, since decoding and tracking block). Frames come out in order, each once
    /// its IDs are final (``TrackedVideoFrame``; ``FaceTracker`` says how long that can take, at
    /// most about 30 s of video). Cancelling the task that reads it ends the sequence promptly:
    /// the frame being decoded or waited for is interrupted (``VideoReader/Interruption``), the
    /// sequence ends (`nil`), and it lets go of the reader and the tracker, whose threads end
    /// with them unless the caller holds the tracker too. A reading or tracking error is thrown
    /// after the frames tracked before it. Iterate it once.
    ///
    /// ```swift
    /// var options = FaceDetectorOptions()
    /// options.isTrackingEnabled = true
    /// let frames = try FaceTracker(options: options).frames(of: VideoReader(contentsOfFile: "clip.mp4"))
    /// for try await frame in frames {
    ///     for face in frame.faces { print(frame.index, face.trackingID!) }   // 0 0 ...
    /// }
    /// ```
    public func frames(of video: sending VideoReader) -> TrackedVideoFrames {
        TrackedVideoFrames(tracker: self, video: video)
    }

    /// ``frames(of:)`` for the video file at `path`.
    public func frames(ofContentsOfFile path: String) throws(FaceKitError) -> TrackedVideoFrames {
        frames(of: try VideoReader(contentsOfFile: path))
    }
}

/// The frames of a video tracked by a ``FaceTracker``, as an asynchronous sequence of
/// ``TrackedVideoFrame``s (``FaceTracker/frames(of:)``).
public struct TrackedVideoFrames: AsyncSequence, Sendable {
    public typealias Element = TrackedVideoFrame
    public typealias Failure = FaceKitError

    private let reading: Reading

    init(tracker: FaceTracker, video: sending VideoReader) {
        reading = Reading(tracker: tracker, video: video)
    }

    public func makeAsyncIterator() -> Iterator { Iterator(reading: reading) }

    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let reading: Reading

        public mutating func next() async throws(FaceKitError) -> TrackedVideoFrame? {
            try await reading.next().get()
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(FaceKitError) -> TrackedVideoFrame? {
            try await reading.next().get()
        }
    }

    /// The reader and the tracker while the video lasts, and the frames tracked and not yet
    /// taken. Each ``next()`` reads and tracks frames on a serial queue of the sequence's own, not
    /// on the tasks' threads: decoding and tracking block, and a video may be read for a while
    /// before a frame's IDs are final, which would hold one of the few threads every task shares.
    fileprivate final class Reading: Sendable {
        private struct State {
            var tracker: FaceTracker?
            var video: VideoReader?
            var hasStarted = false
            var ready: [TrackedVideoFrame] = []
            var failure: FaceKitError?

            /// Lets go of the reader and the tracker.
            mutating func end() {
                tracker = nil
                video = nil
                ready.removeAll()
            }
        }

        private let state: Mutex<State>
        /// Ends a read in progress when the task is cancelled; let go of with the reader.
        private let interruption: Mutex<VideoReader.Interruption?>
        /// The reading task was cancelled: the sequence ends.
        private let isCancelled = Atomic<Bool>(false)
        private let queue = DispatchQueue(label: "FaceKit.TrackedVideoFrames")

        init(tracker: FaceTracker, video: sending VideoReader) {
            interruption = Mutex(video.interruption)
            state = Mutex(State(tracker: tracker, video: video))
        }

        /// The next frame, `nil` after the last or once the task is cancelled.
        func next() async -> Result<TrackedVideoFrame?, FaceKitError> {
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    queue.async { [self] in
                        let result = state.withLock { next(&$0) }
                        if case .success(nil) = result { interruption.withLock { $0 = nil } }
                        continuation.resume(returning: result)
                    }
                }
            } onCancel: {
                isCancelled.store(true, ordering: .sequentiallyConsistent)
                interruption.withLock { $0?.interrupt() }
            }
        }

        private func next(_ state: inout State) -> Result<TrackedVideoFrame?, FaceKitError> {
            while true {
                if isCancelled.load(ordering: .sequentiallyConsistent) {
                    state.end()
                    return .success(nil)
                }
                if !state.ready.isEmpty { return .success(state.ready.removeFirst()) }
                if let failure = state.failure {
                    state.failure = nil
                    return .failure(failure)
                }
                guard let tracker = state.tracker, let video = state.video else { return .success(nil) }
                do throws(FaceKitError) {
                    if !state.hasStarted {
                        tracker.reset()
                        state.hasStarted = true
                    }
                    if let frame = try video.next() {
                        guard let image = frame.image else { continue }
                        state.ready += try tracker.track(image, index: frame.index, timestampMs: frame.timestampMs)
                    } else if !isCancelled.load(ordering: .sequentiallyConsistent) {
                        state.ready += try tracker.finishVideo()
                        state.tracker = nil
                        state.video = nil
                    }
                } catch {
                    // The frames tracked before the failure, as far as they can be described.
                    state.ready += (try? tracker.finishVideo()) ?? []
                    state.failure = error
                    state.tracker = nil
                    state.video = nil
                }
            }
        }
    }
}
