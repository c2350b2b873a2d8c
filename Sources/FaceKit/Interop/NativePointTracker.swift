internal import CFaceKit
import Foundation

/// Follows points from one video frame to the next (`fk_point_tracker`): pyramidal Lucas-Kanade
/// optical flow, checked forward and backward. Not thread-safe: one per video.
final class NativePointTracker {
    /// Where a point went, and how sure that is.
    struct Followed: Equatable {
        var position: CGPoint
        /// Distance in pixels between the point and where following it forward then back again
        /// led; `nil` when the flow lost it.
        var forwardBackwardError: Double?
    }

    private let pointer: OpaquePointer

    /// Runs `fk_point_tracker_create`. The defaults suit faces in ordinary video: a 15 px window
    /// on pyramid levels 0-2 follows motion of up to about 30 px (of the followed image) between
    /// frames.
    init(window: Int = 15, levels: Int = 2) throws(FaceKitError) {
        var created: OpaquePointer?
        try callNative(subject: "point tracker") {
            fk_point_tracker_create(Int32(window), Int32(levels), &created, $0)
        }
        pointer = created!
    }

    deinit { fk_point_tracker_free(pointer) }

    /// Runs `fk_point_tracker_push_frame`: `frame` becomes the current frame, the current one
    /// the previous; it is followed reduced `reduction` times (1: full size).
    func push(_ frame: FaceImage, reduction: Int = 1) throws(FaceKitError) {
        try callNative(subject: "point tracking") {
            fk_point_tracker_push_frame(pointer, frame.handle.pointer, Int32(reduction), $0)
        }
    }

    /// Runs `fk_point_tracker_follow`: `points` of the previous frame, followed into the current.
    func follow(_ points: [CGPoint]) throws(FaceKitError) -> [Followed] {
        guard !points.isEmpty else { return [] }
        let start = points.map { fk_point(x: Float($0.x), y: Float($0.y)) }
        var positions = [fk_point](repeating: fk_point(), count: points.count)
        var errors = [Float](repeating: -1, count: points.count)
        try callNative(subject: "point tracking") {
            fk_point_tracker_follow(pointer, start, Int32(points.count), &positions, &errors, $0)
        }
        return zip(positions, errors).map { position, error in
            Followed(
                position: CGPoint(x: Double(position.x), y: Double(position.y)),
                forwardBackwardError: error < 0 ? nil : Double(error))
        }
    }
}
