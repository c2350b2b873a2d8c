@_spi(Training) import FaceKit
import FaceKitDatasets
import Foundation

/// Frames of the FOCUS blink videos as eye examples (one per eye per frame), labels shifted by
/// the documented one frame, plus the eyes of GENKI's training faces as open examples: FOCUS
/// shows one person, and a model fitted to her alone reads many other people's open eyes as
/// closed.
struct EyeData {
    var train: [Example] = []
    var heldOut: [Example] = []
    /// Per-frame scores of the held-out video for the fixed-threshold baseline: the mean eye
    /// aspect ratio of both eyes, and whether the eyes were open.
    var heldOutFrames: [(aspectRatio: Double, open: Bool)] = []
    /// The video model's examples: one feature, each eye's openness relative to its own recent
    /// level (``EyeOpenLevel``), from the same videos as above.
    var videoTrain: [Example] = []
    var videoHeldOut: [Example] = []
    /// The held-out video frame by frame, for counting blinks: when, the true state, and each
    /// eye's video feature (`nil` before its level is known).
    var heldOutSequence: [(timestampMs: Double, closed: Bool?, features: [Double?])] = []
    var missed = 0

    static let trainingVideos = ["mahie_test_1", "mahie_test_2"]
    static let heldOutVideo = "mahie_test_3"

    static func load(data: URL, detector: FaceDetector, cache: ShapeCache, openFaces: [FaceShape]) throws -> EyeData {
        var result = EyeData()
        for shape in openFaces {
            for eye in [EyeFeatures.Eye.left, .right] {
                result.train.append(Example(features: EyeFeatures.features(of: shape, eye: eye), label: true, source: "genki"))
            }
        }
        let folder = data.appendingPathComponent("eyes/focus-blink")
        for name in trainingVideos + [heldOutVideo] {
            let closed = try BlinkLabels.closedByFrame(folder.appendingPathComponent(name + "_ideal.csv").path)
            let video = try VideoReader(contentsOfFile: folder.appendingPathComponent(name + ".avi").path)
            let isHeldOut = name == heldOutVideo
            var levels = [EyeOpenLevel(), EyeOpenLevel()]
            // Frames whose shape is cached are skipped without decoding.
            while let frame = try video.next(decode: !cache.contains("\(name)#\(video.lastIndex + 1)")) {
                let key = "\(name)#\(frame.index)"
                let isClosed = frame.index < closed.count ? closed[frame.index] : nil
                let found = try cache.shape(for: key) {
                    guard let image = frame.image else { return nil }
                    return try largestFace(in: image, detector: detector)?.shape
                }
                // The video model sees every frame with a face, labelled or not, as it would at run time.
                var videoFeatures: [Double?] = [nil, nil]
                if let shape = found, shape.isPlausible {
                    for (side, points) in [shape.leftEye, shape.rightEye].enumerated() {
                        videoFeatures[side] = levels[side].observe(EyeFeatures.aspectRatio(points), timestampMs: frame.timestampMs)
                    }
                }
                if isHeldOut { result.heldOutSequence.append((frame.timestampMs, isClosed, videoFeatures)) }
                guard let isClosed else { continue }
                guard let shape = found else {
                    result.missed += 1
                    continue
                }
                let source = key
                for eye in [EyeFeatures.Eye.left, .right] {
                    let example = Example(features: EyeFeatures.features(of: shape, eye: eye), label: !isClosed, source: source)
                    if isHeldOut { result.heldOut.append(example) } else { result.train.append(example) }
                }
                for feature in videoFeatures.compactMap({ $0 }) {
                    let example = Example(features: [feature], label: !isClosed, source: source)
                    if isHeldOut { result.videoHeldOut.append(example) } else { result.videoTrain.append(example) }
                }
                if isHeldOut {
                    let ratio = (EyeFeatures.aspectRatio(shape.leftEye) + EyeFeatures.aspectRatio(shape.rightEye)) / 2
                    result.heldOutFrames.append((ratio, !isClosed))
                }
            }
            FileHandle.standardError.write(Data("eyes: \(name) done\n".utf8))
        }
        return result
    }
}
