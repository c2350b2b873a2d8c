import FaceKit
import Foundation

/// Tracking speed on video, single worker, fast mode, every frame: frames per second of
/// `FaceTracker` with and without re-identification, next to decoding alone (FaceKit's
/// `VideoReader`, and the ffmpeg command line) on the same clip. The 640x360 clip is
/// TestVideos/crossing.mp4; the 1280x720 one is the same clip scaled up by ffmpeg.
struct VideoBenchmark {
    let runs: Int

    func run() throws {
        let small = EvaluateCommand.repository.appendingPathComponent("TestVideos/crossing.mp4").path
        let large = NSTemporaryDirectory() + "facekit-crossing-1280x720.mp4"
        try ffmpeg(["-y", "-i", small, "-vf", "scale=1280:720", "-c:v", "libx264", "-crf", "23", large])
        var rows: [[String]] = []
        for clip in [small, large] {
            let ffmpegSeconds = try median((0..<runs).map { _ in try timed { try ffmpeg(["-i", clip, "-f", "null", "-"]) }.1 })
            let (frames, decodeSeconds) = try decodeOnly(clip)
            var trackSeconds: [Double] = []
            for reidentification in [FaceTracker.Reidentification.required, .off] {
                trackSeconds.append(try track(clip, reidentification: reidentification))
            }
            let video = try VideoReader(contentsOfFile: clip)
            rows.append([
                URL(fileURLWithPath: clip).lastPathComponent, "\(video.width)x\(video.height)", "\(frames)",
                fixed(Double(frames) / ffmpegSeconds, 0), fixed(Double(frames) / decodeSeconds, 0),
                fixed(Double(frames) / trackSeconds[0], 1), fixed(Double(frames) / trackSeconds[1], 1),
            ])
            progress("\(clip): \(rows.last!.joined(separator: " / "))")
        }
        printTable(
            ["clip", "size", "frames", "ffmpeg decode frames/s", "VideoReader decode frames/s",
             "track frames/s (re-ID on)", "track frames/s (re-ID off)"], rows)
    }

    /// Frames decoded by VideoReader alone, and the median time over `runs` passes.
    func decodeOnly(_ clip: String) throws -> (Int, Double) {
        var frames = 0
        let seconds = try median((0..<runs).map { _ in
            try timed {
                let video = try VideoReader(contentsOfFile: clip)
                frames = 0
                while try video.next() != nil { frames += 1 }
            }.1
        })
        return (frames, seconds)
    }

    /// Seconds to track every frame, after loading the models (not timed).
    func track(_ clip: String, reidentification: FaceTracker.Reidentification) throws -> Double {
        var options = FaceDetectorOptions()
        options.isTrackingEnabled = true
        let tracker = try FaceTracker(options: options, models: EvaluateCommand.models, reidentification: reidentification)
        return try timed {
            let video = try VideoReader(contentsOfFile: clip)
            while let frame = try video.next(), let image = frame.image {
                _ = try tracker.process(image, timestampMs: frame.timestampMs)
            }
        }.1
    }

    func ffmpeg(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-loglevel", "error", "-nostdin"] + arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "ffmpeg \(arguments) failed"])
        }
    }
}
