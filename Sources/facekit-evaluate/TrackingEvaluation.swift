import FaceKit
import FaceKitArguments
import FaceKitDatasets
import Foundation

/// Tracking against per-frame ground truth, with and without re-identification: the clips of
/// TestVideos/ (in the repository) and OTB's Girl frames (development data). Every frame is
/// analysed, in fast mode.
struct TrackingEvaluation: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "tracking",
            abstract: "Tracking IDs against per-frame ground truth: MOTA, IDF1, identity switches.")
    }

    static var arguments: [ArgumentDefinition<Self>] {
        [
            DevelopmentData.argument(\.data),
        ]
    }

    var data = DevelopmentData()

    struct Sequence {
        var name: String
        var truth: GroundTruth
        var frameCount: Int
        var minFaceSize: Double
        /// OTB boxes take in the hair while dlib's are square on the face: 0.3 is the same face.
        var minimumOverlap: Double
        var frames: () throws -> AnyIterator<(image: FaceImage, timestampMs: Double)>
    }

    func validate() throws(CommandError) {
        try data.validateArgument()
    }

    func run(_ context: CommandContext) throws -> ExitStatus {
        try run()
        return .success
    }

    func run() throws {
        var rows: [[String]] = []
        for sequence in try sequences() {
            for reidentification in [FaceTracker.Reidentification.required, .off] {
                var options = FaceDetectorOptions()
                options.isTrackingEnabled = true
                options.minFaceSize = sequence.minFaceSize
                let tracker = try FaceTracker(
                    options: options, models: DevelopmentData.models, reidentification: reidentification)
                // As facekit track does: a re-identifying tracker runs with one BLAS thread.
                if tracker.isReidentifying { BLASThreads.set(1) }
                var tracked: [Int: [Face]] = [:]
                let (_, seconds) = try timed {
                    var index = 0
                    for frame in try sequence.frames() {
                        tracked[index] = try tracker.process(frame.image, timestampMs: frame.timestampMs)
                        index += 1
                    }
                }
                let score = TrackingScore(truth: sequence.truth, faces: tracked, minimumOverlap: sequence.minimumOverlap)
                progress("\(sequence.name) re-ID \(reidentification == .off ? "off" : "on"): \(score)")
                rows.append([
                    sequence.name, reidentification == .off ? "off" : "on", "\(sequence.frameCount)",
                    "\(score.truthCount)", "\(score.matchedCount)", "\(score.falsePositives)",
                    "\(score.totalSwitches)", fixed(score.mota, 3), fixed(score.idf1, 3), fixed(score.meanOverlap, 2),
                    fixed(Double(tracked.count) / seconds, 1),
                ])
            }
        }
        printTable(
            ["sequence", "re-ID", "frames", "truth boxes", "matched", "false positives", "ID switches", "MOTA", "IDF1",
             "mean IoU", "frames/s"], rows)
    }

    func sequences() throws -> [Sequence] {
        let clips = DevelopmentData.repository.appendingPathComponent("TestVideos")
        var result = try ["crossing", "leave-reenter"].map { name in
            let truth = try GroundTruth(csvFile: clips.appendingPathComponent(name + ".csv").path)
            let path = clips.appendingPathComponent(name + ".mp4").path
            return Sequence(
                name: "TestVideos/\(name).mp4", truth: truth, frameCount: try VideoReader(contentsOfFile: path).declaredFrameCount,
                minFaceSize: 0.1, minimumOverlap: 0.4,
                frames: {
                    let video = try VideoReader(contentsOfFile: path)
                    return AnyIterator {
                        guard let frame = try? video.next(), let image = frame.image else { return nil }
                        return (image, frame.timestampMs)
                    }
                })
        }
        let girl = data.url("video/otb-girl")
        let truth = try GroundTruth(otbFile: girl.appendingPathComponent("groundtruth_rect.txt").path, identity: "girl")
        result.append(Sequence(
            name: "OTB Girl (frames 1-250)", truth: truth, frameCount: truth.boxes.count, minFaceSize: 0.25,
            minimumOverlap: 0.3,
            frames: {
                var index = 0
                return AnyIterator {
                    guard index < truth.boxes.count,
                        let image = try? FaceImage(
                            contentsOfFile: girl.appendingPathComponent(String(format: "img/%04d.jpg", index + 1)).path)
                    else { return nil }
                    defer { index += 1 }
                    return (image, Double(index) * 40)
                }
            }))
        return result
    }
}
