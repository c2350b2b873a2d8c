import FaceKit
import FaceKitArguments
import FaceKitDatasets
import Foundation

/// Tracking speed on video, one worker, fast mode, every frame analysed: frames per second of
/// `FaceTracker` as `facekit track` runs it (YuNet every 5th frame, optical flow in between,
/// re-identification on and off), next to YuNet on every frame and to dlib's HOG on every frame
/// (FaceKit's tracker before YuNet), and next to decoding alone (the ffmpeg command line, and
/// FaceKit's `VideoReader`). Models are loaded before timing; each figure is the median of `runs`
/// passes. Clips: the Hamilton clip (real, 640x360, from the development data), a FOCUS webcam
/// clip (640x480), TestVideos/crossing.mp4 (640x360) and the same scaled to 1280x720.
struct VideoBenchmark: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "video-benchmark",
            abstract: "Tracking frames per second next to decoding alone (use a release build).")
    }

    static var arguments: [ArgumentDefinition<Self>] {
        [
            DevelopmentData.argument(\.data),
            .option("runs", \.runs, valueName: "n", help: "Timed runs per measurement, after one warm-up run."),
            DetectorChoice.argument(\.detector),
            .option("clip", \.clip, valueName: "name", help: "Measure only the clips whose file name contains this."),
        ]
    }

    var data = DevelopmentData()
    var runs = 5
    /// The detectors measured (dlib's HOG row is the slow "before" one).
    var detector = DetectorChoice.all
    var detectors: [FaceDetector.DetectorKind] { detector.kinds }
    /// Only the clips whose file name contains this (all when `nil`).
    var clip: String?

    /// One way of tracking: the detector, how often it runs, and re-identification.
    struct Setup {
        var name: String
        var detector: FaceDetector.DetectorKind
        var interval: Int
        var reidentification: FaceTracker.Reidentification
    }

    static let setups = [
        Setup(name: "track (YuNet every 5th + flow, re-ID on)", detector: .yunet, interval: 5, reidentification: .required),
        Setup(name: "track (re-ID off)", detector: .yunet, interval: 5, reidentification: .off),
        Setup(name: "YuNet every frame (re-ID off)", detector: .yunet, interval: 1, reidentification: .off),
        Setup(name: "dlib HOG every frame, before (re-ID off)", detector: .dlib, interval: 1, reidentification: .off),
    ]

    func validate() throws(CommandError) {
        try validateRuns(runs)
        try data.validateArgument()
    }

    func run(_ context: CommandContext) throws -> ExitStatus {
        try run()
        return .success
    }

    func run() throws {
        let crossing = DevelopmentData.repository.appendingPathComponent("TestVideos/crossing.mp4").path
        let large = NSTemporaryDirectory() + "facekit-crossing-1280x720.mp4"
        try ffmpeg(["-y", "-i", crossing, "-vf", "scale=1280:720", "-c:v", "libx264", "-crf", "23", large])
        let clips = [
            data.url("video/short_hamilton_clip.mp4").path,
            data.url("eyes/focus-blink/soniya_test_3.avi").path, crossing, large,
        ].filter { FileManager.default.fileExists(atPath: $0) }
            .filter { path in clip.map { URL(fileURLWithPath: path).lastPathComponent.contains($0) } ?? true }
        var rows: [[String]] = []
        for clip in clips {
            let ffmpegSeconds = try median((0..<runs).map { _ in try timed { try ffmpeg(["-i", clip, "-f", "null", "-"]) }.1 })
            let (frames, decodeSeconds) = try decodeOnly(clip)
            let video = try VideoReader(contentsOfFile: clip)
            let name = URL(fileURLWithPath: clip).lastPathComponent
            rows.append([
                name, "\(video.width)x\(video.height)", "\(frames)", "ffmpeg -f null (whole command)",
                fixed(Double(frames) / ffmpegSeconds, 0), "1.0",
            ])
            rows.append([name, "", "", "VideoReader decode only", fixed(Double(frames) / decodeSeconds, 0),
                         fixed(decodeSeconds / ffmpegSeconds, 2)])
            for setup in Self.setups where detectors.contains(setup.detector) {
                let seconds = try track(clip, setup)
                rows.append([name, "", "", setup.name, fixed(Double(frames) / seconds, 1), fixed(seconds / ffmpegSeconds, 1)])
                progress(rows.last!.joined(separator: " / "))
            }
        }
        printTable(["clip", "size", "frames", "what", "frames/s", "time / ffmpeg's"], rows)
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

    /// Median seconds to track every frame, after loading the models (not timed).
    func track(_ clip: String, _ setup: Setup) throws -> Double {
        var options = FaceDetectorOptions()
        options.isTrackingEnabled = true
        let detector = try FaceDetector(options: options, models: DevelopmentData.models, detector: setup.detector)
        let tracker = try FaceTracker(
            detector: detector, models: DevelopmentData.models, reidentification: setup.reidentification,
            detectionInterval: setup.interval)
        // As facekit track does: a re-identifying tracker runs with one BLAS thread.
        if tracker.isReidentifying { BLASThreads.set(1) }
        return try median((0..<runs).map { _ in
            tracker.reset()
            return try timed {
                let video = try VideoReader(contentsOfFile: clip)
                while let frame = try video.next(), let image = frame.image {
                    _ = try tracker.process(image, timestampMs: frame.timestampMs)
                }
            }.1
        })
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
