import Foundation
import Testing
import FaceKitTestSupport
@testable import FaceKit

@Suite("VideoReader", .needsSharedData)
struct VideoReaderTests {
    /// Reads every frame, decoding every `decodeEvery`th, and returns the frames read.
    static func readAll(_ path: String, decodeEvery: Int = 1) throws -> (VideoReader, [VideoReader.Frame]) {
        let video = try VideoReader(contentsOfFile: path)
        var frames: [VideoReader.Frame] = []
        while let frame = try video.next(decode: (video.lastIndex + 1) % decodeEvery == 0) { frames.append(frame) }
        return (video, frames)
    }

    @Test("reads H.264, HEVC and MPEG-4 clips to the end with increasing timestamps",
          arguments: [("video/pyfeat/single_face.mp4", 72, 640, 360), ("video/pyfeat/face_noface.mov", 169, 960, 540),
                      ("video/Megamind.avi", 270, 720, 528)])
    func formats(path: String, frames expected: Int, width: Int, height: Int) throws {
        let (video, frames) = try Self.readAll(TestData.shared(path), decodeEvery: 10)
        #expect(video.width == width && video.height == height)
        #expect(frames.count == expected)
        #expect(frames.map(\.index) == Array(0..<expected))
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.timestampMs < $1.timestampMs })
        #expect(frames.allSatisfy { ($0.index % 10 == 0) == ($0.image != nil) })
        #expect(frames.compactMap(\.image).allSatisfy { $0.width == width && $0.height == height })
        #expect(!video.endedEarly)
    }

    @Test("a clip stored sideways with rotation metadata reads upright, at its upright size")
    func rotationMetadata() throws {
        let path = TestData.repository.appendingPathComponent("TestVideos/crossing-rotated.mp4").path
        let (video, frames) = try Self.readAll(path, decodeEvery: 25)
        #expect(video.width == 640 && video.height == 360, "stored as 360x640")
        #expect(frames.count == 125)
        #expect(frames.compactMap(\.image).allSatisfy { $0.width == 640 && $0.height == 360 })
    }

    @Test("a for loop over a reader reads every frame decoded, once, as next() does")
    func sequence() throws {
        let path = TestData.shared("video/pyfeat/single_face.mp4")
        let (_, expected) = try Self.readAll(path)
        let video = try VideoReader(contentsOfFile: path)
        var frames: [VideoReader.Frame] = []
        for frame in video { frames.append(frame) }
        #expect(frames.map(\.index) == expected.map(\.index))
        #expect(frames.map(\.timestampMs) == expected.map(\.timestampMs))
        #expect(frames.count == 72 && frames.allSatisfy { $0.image?.width == 640 })
        #expect(video.readingError == nil)
        // Read once: a second loop finds the stream at its end.
        #expect(Array(video).isEmpty)
    }

    @Test("timestamps follow the frame rate")
    func timestamps() throws {
        let (_, frames) = try Self.readAll(TestData.shared("video/pyfeat/single_face.mp4"), decodeEvery: 1000)
        #expect(abs(frames[30].timestampMs - 1000) < 1)
    }

    @Test("a variable-frame-rate clip reads with its own frame times, never going back")
    func variableFrameRate() throws {
        // crossing.mp4's frames re-timed: 25 fps for 20 frames, then 25/3. FFmpeg hands out the
        // last frames while draining the decoder, when OpenCV guesses their times from an average
        // rate (frames 38 and 39 read 2812 and 2886 ms after 2840 before). Without an edit list:
        // FFmpeg 7.1's ffmpeg leaves the last frame without a duration and ends the MP4's edit list
        // where it starts, so that FFmpeg (and ffprobe) present 39 frames of the file, on 5.1 and 7.1
        // alike; FFmpeg 5.1's gives it one.
        let path = NSTemporaryDirectory() + "facekit-vfr-\(UUID().uuidString).mp4"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let crossing = TestData.repository.appendingPathComponent("TestVideos/crossing.mp4").path
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = [
            "-v", "error", "-nostdin", "-y", "-i", crossing, "-frames:v", "40", "-vf",
            "setpts='if(lt(N,20),N/25/TB,(20+(N-20)*3)/25/TB)'", "-fps_mode", "vfr", "-an", "-use_editlist", "0", path,
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        try #require(ffmpeg.terminationStatus == 0, "ffmpeg could not re-time crossing.mp4")
        let (_, frames) = try Self.readAll(path, decodeEvery: 7)
        try #require(frames.count == 40)
        let expected: [Double] = (0..<40).map { index in
            let ticks = index < 20 ? index : 20 + (index - 20) * 3
            return Double(ticks) * 1000 / 25
        }
        for (frame, time) in zip(frames, expected) {
            #expect(abs(frame.timestampMs - time) < 1, "frame \(frame.index): \(frame.timestampMs) ms, not \(time)")
        }
    }

    @Test("a video cut in half reads what is there and says it ended early")
    func truncated() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestData.shared("video/Megamind.avi")))
        let path = NSTemporaryDirectory() + "facekit-truncated-\(UUID().uuidString).avi"
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (video, frames) = try Self.readAll(path, decodeEvery: 1000)
        #expect(frames.count > 50 && frames.count < 250)
        #expect(video.endedEarly)
    }

    @Test("missing, empty and non-video files are refused, naming the file")
    func badFiles() throws {
        #expect {
            try VideoReader(contentsOfFile: "/nonexistent/clip.mp4")
        } throws: { error in
            guard case .unreadableFile(let path, _) = error as? FaceKitError else { return false }
            return path == "/nonexistent/clip.mp4"
        }
        let folder = NSTemporaryDirectory() + "facekit-video-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, contents) in [("empty.mp4", Data()), ("text.mp4", Data("not a video at all".utf8))] {
            let path = folder + "/" + name
            try contents.write(to: URL(fileURLWithPath: path))
            #expect {
                try VideoReader(contentsOfFile: path)
            } throws: { error in
                guard case .notAVideo(let source, _) = error as? FaceKitError else { return false }
                return source == path
            }
        }
    }
}

@Suite("VideoReader's native handle")
struct VideoReaderHandleTests {
    /// The paths this process has open, from /proc/self/fd.
    static func openFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)
        }
    }

    @Test("when reading the opened video's size fails, the video is closed again, not leaked")
    func releasedWhenInfoFails() throws {
        // A copy of its own, so that no other test's open file counts.
        let path = NSTemporaryDirectory() + "facekit-handle-\(UUID().uuidString).mp4"
        try FileManager.default.copyItem(
            atPath: TestData.repository.appendingPathComponent("TestVideos/crossing.mp4").path, toPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let video = try VideoReader(contentsOfFile: path)
            #expect(try Self.openFiles().contains(path), "an open video holds its file open")
            #expect(video.width == 640)
        }
        #expect(try !Self.openFiles().contains(path), "a released video closes its file")
        #expect {
            try VideoReader(contentsOfFile: path) { _, _ throws(FaceKitError) in throw .native(reason: "no info") }
        } throws: { error in
            (error as? FaceKitError)?.description == "internal error: no info"
        }
        #expect(try !Self.openFiles().contains(path), "the video whose info could not be read is closed")
    }
}
