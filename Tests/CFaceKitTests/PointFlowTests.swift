import CFaceKit
import FaceKitTestSupport
import Foundation
import Testing

/// The point tracker (point_tracker.cpp: OpenCV's calcOpticalFlowPyrLK, checked forward and
/// backward) on frames whose motion is known, and across real video and its edges.
@Suite("Point flow")
struct PointFlowTests {
    /// Frame `k` of the fixture photo moved by whole pixels: the square of `side` pixels at
    /// (4k, 2k), so that its content moves 4 px left and 2 px up per frame (whole pixels at half
    /// size too).
    static func movedPhoto(frames: Int) throws -> (frames: [OpaquePointer], side: Int32) {
        var photo: OpaquePointer?
        try #require(fk_image_create_from_file(NativeInputs.photo, 0, &photo, nil) == FK_OK.code)
        defer { fk_image_free(photo) }
        var width: Int32 = 0, height: Int32 = 0
        _ = fk_image_get_size(photo, &width, &height, nil)
        var pixels = [UInt8](repeating: 0, count: Int(width * height * 3))
        try #require(
            fk_image_copy_pixels(photo, Int32(FK_PIXEL_BGR8.rawValue), &pixels, pixels.count, width * 3, nil) == FK_OK.code)
        let side = min(width, height) - 48
        var moved: [OpaquePointer] = []
        for k in 0..<frames {
            var image: OpaquePointer?
            let start = (2 * k * Int(width) + 4 * k) * 3
            let status = pixels.withUnsafeBufferPointer {
                fk_image_create_from_pixels($0.baseAddress! + start, side, side, width * 3, Int32(FK_PIXEL_BGR8.rawValue),
                                            &image, nil)
            }
            try #require(status == FK_OK.code && image != nil)
            moved.append(image!)
        }
        return (moved, side)
    }

    @Test("follows a photo moved by whole pixels to where it moved, at full size and reduced",
          arguments: [Int32(1), Int32(2)])
    func movedPhoto(reduction: Int32) throws {
        let (frames, side) = try Self.movedPhoto(frames: 6)
        defer { frames.forEach { fk_image_free($0) } }
        try #require(side > 100)
        var tracker: OpaquePointer?
        try #require(fk_point_tracker_create(15, 2, &tracker, nil) == FK_OK.code)
        defer { fk_point_tracker_free(tracker) }
        var points: [fk_point] = []
        for y in stride(from: 24, through: Int(side) - 24, by: 17) {
            for x in stride(from: 24, through: Int(side) - 24, by: 19) {
                points.append(fk_point(x: Float(x) + 0.37, y: Float(y) + 0.61))
            }
        }
        var followed = 0, total = 0
        var misses: [Double] = [], backAndForth: [Double] = []
        for (index, frame) in frames.enumerated() {
            try #require(fk_point_tracker_push_frame(tracker, frame, reduction, nil) == FK_OK.code)
            if index == 0 { continue }
            var out = [fk_point](repeating: fk_point(), count: points.count)
            var errors = [Float](repeating: 0, count: points.count)
            let call = NativeCall { fk_point_tracker_follow(tracker, points, Int32(points.count), &out, &errors, $0) }
            try #require(call.status == FK_OK.code, "\(call.message)")
            for i in points.indices {
                total += 1
                guard errors[i] >= 0 else { continue }
                followed += 1
                misses.append(hypot(Double(out[i].x - (points[i].x - 4)), Double(out[i].y - (points[i].y - 2))))
                backAndForth.append(Double(errors[i]))
            }
        }
        misses.sort()
        backAndForth.sort()
        let median = misses.isEmpty ? .infinity : misses[misses.count / 2]
        let ninetieth = misses.isEmpty ? .infinity : misses[misses.count * 9 / 10]
        #expect(Double(followed) >= 0.9 * Double(total), "followed \(followed) of \(total)")
        // Measured (OpenCV 4.6, x86-64): a median of 0.002 px at full size and 0.006 at half, 90%
        // within 0.006 and 0.015; forward-backward errors a median of 0.001 and 0.002.
        #expect(median <= 0.02 && ninetieth <= 0.05, "median \(median) px from the truth, 90% within \(ninetieth)")
        #expect(backAndForth.isEmpty || backAndForth[backAndForth.count / 2] <= 0.02,
                "median forward-backward error \(backAndForth[backAndForth.count / 2]) px")
    }

    /// A grid over each frame of `clip` and across its edges, and points well outside it,
    /// followed into the next frame `reduction` as the tracker uses it.
    @Test("follows points across real video, and loses the points outside the frame",
          arguments: [("crossing.mp4", Int32(1)), ("leave-reenter.mp4", Int32(1)), ("crossing-rotated.mp4", Int32(2))])
    func realVideo(clip: String, reduction: Int32) throws {
        let path = TestData.repository.appendingPathComponent("TestVideos/\(clip)").path
        var video: OpaquePointer?
        let opened = NativeCall { fk_video_open(path, 0, &video, $0) }
        try #require(opened.status == FK_OK.code, "\(opened.message)")
        defer { fk_video_free(video) }
        var tracker: OpaquePointer?
        try #require(fk_point_tracker_create(15, 2, &tracker, nil) == FK_OK.code)
        defer { fk_point_tracker_free(tracker) }
        var followed = 0, lost = 0, outsideFollowed = 0
        for frame in 0..<12 {
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
            let inside = points.count
            // 40 px outside each edge, beyond the window's reach at every reduction used here.
            let (w, h) = (Float(width), Float(height))
            points += [
                fk_point(x: -40, y: h / 2), fk_point(x: w + 40, y: h / 2), fk_point(x: w / 2, y: -40),
                fk_point(x: w / 2, y: h + 40),
            ]
            var out = [fk_point](repeating: fk_point(), count: points.count)
            var errors = [Float](repeating: 0, count: points.count)
            let call = NativeCall { fk_point_tracker_follow(tracker, points, Int32(points.count), &out, &errors, $0) }
            try #require(call.status == FK_OK.code, "\(call.message)")
            for i in points.indices {
                #expect(errors[i] == -1 || (errors[i] >= 0 && errors[i].isFinite && out[i].x.isFinite && out[i].y.isFinite))
                if i >= inside {
                    if errors[i] >= 0 { outsideFollowed += 1 }
                } else if errors[i] < 0 {
                    lost += 1
                } else {
                    followed += 1
                }
            }
        }
        // Both outcomes are exercised: points followed, and points the flow loses (off the frame).
        #expect(followed > 1000 && lost > 50, "followed \(followed), lost \(lost)")
        #expect(outsideFollowed == 0, "\(outsideFollowed) points outside the frame followed")
    }

    @Test("follows nothing before a second frame of the same size and reduction")
    func needsTwoFrames() throws {
        var tracker: OpaquePointer?
        try #require(fk_point_tracker_create(15, 2, &tracker, nil) == FK_OK.code)
        defer { fk_point_tracker_free(tracker) }
        let large = try #require(NativeInputs.image(width: 64, height: 48))
        let small = try #require(NativeInputs.image(width: 32, height: 32))
        defer {
            fk_image_free(large)
            fk_image_free(small)
        }
        let points = [fk_point(x: 16, y: 16)]
        var out = [fk_point()], errors: [Float] = [0]
        func follow() -> NativeCall { NativeCall { fk_point_tracker_follow(tracker, points, 1, &out, &errors, $0) } }
        #expect(follow().status == FK_INVALID_ARGUMENT.code)
        #expect(fk_point_tracker_push_frame(tracker, large, 1, nil) == FK_OK.code)
        #expect(follow().status == FK_INVALID_ARGUMENT.code)
        #expect(fk_point_tracker_push_frame(tracker, large, 1, nil) == FK_OK.code)
        #expect(follow().status == FK_OK.code)
        #expect(fk_point_tracker_push_frame(tracker, small, 1, nil) == FK_OK.code)
        #expect(follow().message.hasPrefix("no previous frame"))
        #expect(fk_point_tracker_push_frame(tracker, small, 2, nil) == FK_OK.code)
        #expect(follow().status == FK_INVALID_ARGUMENT.code)
    }
}
