import FaceKit
import FaceKitArguments
import FaceKitDatasets
import Foundation

/// How much a tracked face's box and head angles tremble from frame to frame, and what smoothing
/// costs in lag.
///
/// Jitter is the mean absolute second difference, |v(t-1) - 2 v(t) + v(t+1)|, over consecutive
/// frames of one tracking ID: zero for a still or steadily moving face, so it measures trembling
/// and not motion. It is given for the box's width and centre (in percent of the width) and for
/// yaw and pitch (degrees). Lag is the mean distance between the box centre and the ground
/// truth's on the moving faces of TestVideos/crossing.mp4, after removing the constant offset
/// between the two box conventions (each identity's median offset), in percent of the width.
struct JitterEvaluation: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "jitter",
            abstract: "Frame-to-frame trembling of tracked boxes and angles, with and without smoothing.")
    }

    static var arguments: [ArgumentDefinition<Self>] {
        [
            DevelopmentData.argument(\.data),
        ]
    }

    var data = DevelopmentData()

    struct Setup {
        var name: String
        var detector: FaceDetector.DetectorKind
        var interval: Int
        var smoothing: Bool
    }

    static let setups = [
        Setup(name: "dlib HOG every frame (before)", detector: .dlib, interval: 1, smoothing: false),
        Setup(name: "YuNet every 5th + flow, unsmoothed", detector: .yunet, interval: 5, smoothing: false),
        Setup(name: "YuNet every 5th + flow, smoothed (default)", detector: .yunet, interval: 5, smoothing: true),
    ]

    func validate() throws(CommandError) {
        try data.validateArgument()
    }

    func run(_ context: CommandContext) throws -> ExitStatus {
        try run()
        return .success
    }

    func run() throws {
        let testVideos = DevelopmentData.repository.appendingPathComponent("TestVideos")
        let clips: [(name: String, path: String, frames: Int)] = [
            ("TestVideos/leave-reenter.mp4 (astronaut: 1 px a frame)", testVideos.appendingPathComponent("leave-reenter.mp4").path, 150),
            ("FOCUS soniya_test_3 (webcam, seated)", data.url("eyes/focus-blink/soniya_test_3.avi").path, 600),
            ("FOCUS mahie_test_1 (webcam, seated, glasses)", data.url("eyes/focus-blink/mahie_test_1.avi").path, 600),
        ]
        var rows: [[String]] = []
        for clip in clips where FileManager.default.fileExists(atPath: clip.path) {
            for setup in Self.setups {
                let tracks = try track(clip.path, setup, frames: clip.frames)
                let j = jitter(tracks)
                rows.append([clip.name, setup.name, "\(j.samples)", fixed(j.width, 2), fixed(j.centre, 2), fixed(j.yaw, 2), fixed(j.pitch, 2)])
                progress(rows.last!.joined(separator: " / "))
            }
        }
        printTable(
            ["clip", "tracker", "frame triples", "width jitter %", "centre jitter %", "yaw jitter °", "pitch jitter °"], rows)
        print()
        var lagRows: [[String]] = []
        let truth = try GroundTruth(csvFile: testVideos.appendingPathComponent("crossing.csv").path)
        for setup in Self.setups {
            let tracked = try track(testVideos.appendingPathComponent("crossing.mp4").path, setup, frames: 125)
            lagRows.append([setup.name, fixed(lag(tracked, truth: truth), 2)])
        }
        printTable(["tracker (TestVideos/crossing.mp4, faces moving 3-4 px a frame)", "centre error %"], lagRows)
    }

    /// Faces by frame, tracked with `setup` over the first `frames` frames.
    func track(_ path: String, _ setup: Setup, frames: Int) throws -> [Int: [Face]] {
        var options = FaceDetectorOptions()
        options.isTrackingEnabled = true
        let detector = try FaceDetector(options: options, models: DevelopmentData.models, detector: setup.detector)
        let tracker = try FaceTracker(
            detector: detector, models: DevelopmentData.models, reidentification: .off, detectionInterval: setup.interval,
            smoothing: setup.smoothing)
        let video = try VideoReader(contentsOfFile: path)
        var result: [Int: [Face]] = [:]
        while let frame = try video.next(), frame.index < frames, let image = frame.image {
            result[frame.index] = try tracker.process(image, timestampMs: frame.timestampMs)
        }
        return result
    }

    func jitter(_ tracked: [Int: [Face]]) -> (samples: Int, width: Double, centre: Double, yaw: Double, pitch: Double) {
        var width: [Double] = [], centre: [Double] = [], yaw: [Double] = [], pitch: [Double] = []
        for (frame, faces) in tracked {
            for face in faces {
                guard let id = face.trackingID,
                    let before = tracked[frame - 1]?.first(where: { $0.trackingID == id }),
                    let after = tracked[frame + 1]?.first(where: { $0.trackingID == id })
                else { continue }
                func second(_ value: (Face) -> Double) -> Double { abs(value(before) - 2 * value(face) + value(after)) }
                let scale = Double(face.frame.width) / 100
                width.append(second { Double($0.frame.width) } / scale)
                centre.append(hypot(second { Double($0.frame.midX) }, second { Double($0.frame.midY) }) / scale)
                yaw.append(second(\.headEulerAngleY))
                pitch.append(second(\.headEulerAngleX))
            }
        }
        return (width.count, mean(width), mean(centre), mean(yaw), mean(pitch))
    }

    /// Mean centre error against the truth, after each identity's median offset is removed.
    func lag(_ tracked: [Int: [Face]], truth: GroundTruth) -> Double {
        var offsets: [String: [(Int, CGPoint, Double)]] = [:]
        for entry in truth.boxes {
            let (frame, identity, box) = (entry.frame, entry.identity, entry.box)
            guard let face = tracked[frame]?.max(by: {
                $0.frame.intersectionOverUnion(box) < $1.frame.intersectionOverUnion(box)
            }), face.frame.intersectionOverUnion(box) >= 0.4 else { continue }
            offsets[identity, default: []].append(
                (frame, CGPoint(x: face.frame.midX - box.midX, y: face.frame.midY - box.midY), Double(box.width)))
        }
        var errors: [Double] = []
        for (_, samples) in offsets {
            let mx = median(samples.map { Double($0.1.x) }), my = median(samples.map { Double($0.1.y) })
            errors += samples.map { hypot(Double($0.1.x) - mx, Double($0.1.y) - my) / $0.2 * 100 }
        }
        return mean(errors)
    }
}
