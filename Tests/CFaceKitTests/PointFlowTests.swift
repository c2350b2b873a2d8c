import CFaceKit
import CFaceKitTools
import FaceKitTestSupport
import Foundation
import Testing

/// FaceKit's Lucas-Kanade flow (lucas_kanade.cpp) against OpenCV's calcOpticalFlowPyrLK, which it
/// replaces: the same positions and forward-backward errors, to the last bit, over real video.
@Suite("Point flow")
struct PointFlowTests {
    struct Counts { var followed = 0, lost = 0, differing = 0 }

    /// Follows a grid over each frame of `clip` (and points across its edges, which OpenCV's
    /// border handling decides) into the next, with both flows, `reduction` as the tracker uses it.
    static func compare(clip: String, reduction: Int32, window: Int32, frames: Int) throws -> Counts {
        var video: OpaquePointer?
        let opened = NativeCall { fk_video_open(clip, 0, &video, $0) }
        try #require(opened.status == FK_OK.code, "\(opened.message)")
        defer { fk_video_free(video) }
        var tracker: OpaquePointer?
        try #require(fk_point_tracker_create(window, 2, &tracker, nil) == FK_OK.code)
        defer { fk_point_tracker_free(tracker) }
        var counts = Counts()
        for frame in 0..<frames {
            var image: OpaquePointer?
            var index: Int64 = 0, timestamp = 0.0, ended: Int32 = 0
            let read = NativeCall { fk_video_next(video, 1, &image, &index, &timestamp, &ended, $0) }
            try #require(read.status == FK_OK.code, "\(read.message)")
            if ended != 0 { break }
            defer { fk_image_free(image) }
            var width: Int32 = 0, height: Int32 = 0
            _ = fk_image_get_size(image, &width, &height, nil)
            try #require(fk_point_tracker_push_frame(tracker, image, reduction, nil) == FK_OK.code)
            if frame == 0 { continue }
            var points: [fk_point] = []
            for y in stride(from: -20, through: Int(height) + 20, by: 17) {
                for x in stride(from: -20, through: Int(width) + 20, by: 19) {
                    points.append(fk_point(x: Float(x) + 0.37, y: Float(y) + 0.61))
                }
            }
            let n = Int32(points.count)
            var ours = [fk_point](repeating: fk_point(), count: points.count), theirs = ours
            var oursError = [Float](repeating: 0, count: points.count), theirsError = oursError
            let followed = NativeCall { fk_point_tracker_follow(tracker, points, n, &ours, &oursError, $0) }
            let reference = NativeCall {
                fk_opencv_point_tracker_follow(tracker, points, n, &theirs, &theirsError, $0)
            }
            try #require(followed.status == FK_OK.code && reference.status == FK_OK.code, "\(followed.message)")
            for i in points.indices {
                if oursError[i] < 0 { counts.lost += 1 } else { counts.followed += 1 }
                let same = ours[i].x.bitPattern == theirs[i].x.bitPattern
                    && ours[i].y.bitPattern == theirs[i].y.bitPattern
                    && oursError[i].bitPattern == theirsError[i].bitPattern
                if !same { counts.differing += 1 }
            }
        }
        return counts
    }

    /// FaceKit's 15-pixel window takes the vector path; a 21-pixel one the plain path.
    @Test("follows points as OpenCV's calcOpticalFlowPyrLK does, bit for bit, across the frame and its edges",
          arguments: [("crossing.mp4", Int32(1), Int32(15)), ("leave-reenter.mp4", Int32(1), Int32(15)),
                      ("crossing-rotated.mp4", Int32(2), Int32(15)), ("crossing.mp4", Int32(1), Int32(21))])
    func sameAsOpenCV(clip: String, reduction: Int32, window: Int32) throws {
        let path = TestData.repository.appendingPathComponent("TestVideos/\(clip)").path
        let counts = try Self.compare(clip: path, reduction: reduction, window: window, frames: 12)
        #expect(counts.differing == 0, "\(counts.differing) of \(counts.followed + counts.lost) points differ")
        // Both outcomes are exercised: points followed, and points the flow loses (off the frame).
        #expect(counts.followed > 1000 && counts.lost > 50, "followed \(counts.followed), lost \(counts.lost)")
    }
}
