import FaceKitTestSupport
import Foundation
import Synchronization
import Testing

@testable import FaceKit

/// Final tracking IDs as the frames come (``FaceTracker/track(_:index:timestampMs:)``), and the
/// asynchronous sequence of them (``FaceTracker/frames(of:)``), on the development clips.
@Suite("TrackedVideoFrames", .needsModels)
struct TrackedVideoFramesTests {
    static func tracker() throws -> FaceTracker {
        try FaceTracker(options: TrackedVideo.trackingOptions, models: ModelLocator(directory: TestData.models))
    }

    static func tracker(watchedBy released: Released) throws -> FaceTracker {
        let tracker = try tracker()
        released.watch(tracker)
        return tracker
    }

    static func clip(_ name: String) -> String {
        name.hasPrefix("TestVideos/") ? TestData.repository.appendingPathComponent(name).path : TestData.shared(name)
    }

    /// Every frame's faces from ``FaceTracker/process(_:timestampMs:)``, their IDs mapped at the
    /// end by ``FaceTracker/videoTrackIDs()``: what `annotate` and `report` show.
    static func mappedAtTheEnd(_ path: String) throws -> [TrackedVideoFrame] {
        let tracker = try tracker()
        var frames: [TrackedVideoFrame] = []
        for frame in try VideoReader(contentsOfFile: path) {
            frames.append(TrackedVideoFrame(
                index: frame.index, timestampMs: frame.timestampMs,
                faces: try tracker.process(frame.image!, timestampMs: frame.timestampMs)))
        }
        let ids = tracker.videoTrackIDs()
        return frames.map { frame in
            var frame = frame
            for index in frame.faces.indices { frame.faces[index].trackingID = ids[frame.faces[index].trackingID!] }
            return frame
        }
    }

    /// Every frame as ``FaceTracker/track(_:index:timestampMs:)`` hands it back.
    static func trackedAsTheyCome(_ path: String, tracker: FaceTracker) throws -> [TrackedVideoFrame] {
        var frames: [TrackedVideoFrame] = []
        for frame in try VideoReader(contentsOfFile: path) {
            frames += try tracker.track(frame.image!, index: frame.index, timestampMs: frame.timestampMs)
        }
        return frames + (try tracker.finishVideo())
    }

    @Test(
        "track() hands back every frame once, in order, with the final IDs videoTrackIDs() maps process()'s to",
        arguments: ["TestVideos/crossing.mp4", "TestVideos/leave-reenter.mp4"])
    func sameAsMappedAtTheEnd(clip: String) throws {
        let path = Self.clip(clip)
        let expected = try Self.mappedAtTheEnd(path)
        let tracker = try Self.tracker()
        let tracked = try Self.trackedAsTheyCome(path, tracker: tracker)
        #expect(tracked.map(\.index) == Array(0..<expected.count))
        #expect(tracked == expected)
        // The tracker starts the next video afresh: the same frames again.
        #expect(try Self.trackedAsTheyCome(path, tracker: tracker) == expected)
    }

    @Test(
        "on the Hamilton clip, Miranda's two shots have one final ID before the video ends, and the people are numbered 0 to 5",
        .needsSharedData)
    func hamilton() throws {
        let path = Self.clip("video/short_hamilton_clip.mp4")
        let tracker = try Self.tracker()
        var frames: [TrackedVideoFrame] = []
        var handedBackBeforeTheEnd = 0
        for frame in try VideoReader(contentsOfFile: path) {
            frames += try tracker.track(frame.image!, index: frame.index, timestampMs: frame.timestampMs)
            handedBackBeforeTheEnd = frames.count
        }
        frames += try tracker.finishVideo()
        // Miranda's wide shot (frames 0-19) is the first person: its frames come out as they are
        // described. Every later face may be her, off screen but still kept for
        // re-identification for 10 s, longer than the clip: its frames wait for the end.
        #expect(handedBackBeforeTheEnd >= 20, "\(handedBackBeforeTheEnd)")
        #expect(frames == (try Self.mappedAtTheEnd(path)))
        let ids = Set(frames.flatMap { $0.faces.map { $0.trackingID! } })
        #expect(ids == Set(0..<6), "\(ids.sorted())")
        let miranda = [10, 150].map { index in frames[index].faces.map { $0.trackingID! } }
        #expect(miranda[0].count == 1 && miranda[0] == miranda[1], "\(miranda)")
    }

    @Test("frames(of:) yields what track() hands back, off the caller's actor")
    func asyncSequence() async throws {
        let path = Self.clip("TestVideos/leave-reenter.mp4")
        let expected = try Self.trackedAsTheyCome(path, tracker: try Self.tracker())
        var frames: [TrackedVideoFrame] = []
        for try await frame in try Self.tracker().frames(ofContentsOfFile: path) { frames.append(frame) }
        #expect(frames == expected)
        // From the main actor too.
        let onMain = try await Task { @MainActor in
            var frames: [TrackedVideoFrame] = []
            for try await frame in try Self.tracker().frames(of: VideoReader(contentsOfFile: path)) { frames.append(frame) }
            return frames
        }.value
        #expect(onMain == expected)
    }

    /// Whether a tracker was let go of: its deinit waits for its threads' jobs, after which they end.
    final class Released: Sendable {
        private let tracker = Mutex<Weak?>(nil)
        private struct Weak { weak var tracker: FaceTracker? }
        func watch(_ tracker: FaceTracker) { self.tracker.withLock { $0 = Weak(tracker: tracker) } }
        var isReleased: Bool { tracker.withLock { $0 != nil && $0!.tracker == nil } }
    }

    @Test("cancelling the task mid-video ends the sequence, stops decoding and lets go of the tracker")
    func cancellation() async throws {
        let path = Self.clip("TestVideos/leave-reenter.mp4")  // 150 frames
        let released = Released()
        let (started, startedContinuation) = AsyncStream.makeStream(of: Int.self)
        let reading = Task { () throws -> (count: Int, released: Bool) in
            var count = 0
            for try await _ in try Self.tracker(watchedBy: released).frames(ofContentsOfFile: path) {
                count += 1
                if count == 10 { startedContinuation.yield(count) }
            }
            return (count, released.isReleased)
        }
        for await _ in started { break }
        reading.cancel()
        let (count, wasReleased) = try await reading.value
        #expect(count >= 10 && count < 150, "\(count) frames")
        #expect(wasReleased, "the tracker is still held once the loop has ended")
    }
}
