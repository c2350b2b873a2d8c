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
            // Frames whose shape is cached are skipped without decoding.
            while let frame = try video.next(decode: !cache.contains("\(name)#\(video.lastIndex + 1)")) {
                guard frame.index < closed.count, let isClosed = closed[frame.index] else { continue }
                let key = "\(name)#\(frame.index)"
                let found = try cache.shape(for: key) {
                    guard let image = frame.image else { return nil }
                    return try largestFace(in: image, detector: detector)?.shape
                }
                guard let shape = found else {
                    result.missed += 1
                    continue
                }
                let source = key
                for eye in [EyeFeatures.Eye.left, .right] {
                    let example = Example(features: EyeFeatures.features(of: shape, eye: eye), label: !isClosed, source: source)
                    if name == heldOutVideo { result.heldOut.append(example) } else { result.train.append(example) }
                }
                if name == heldOutVideo {
                    let ratio = (EyeFeatures.aspectRatio(shape.leftEye) + EyeFeatures.aspectRatio(shape.rightEye)) / 2
                    result.heldOutFrames.append((ratio, !isClosed))
                }
            }
            FileHandle.standardError.write(Data("eyes: \(name) done\n".utf8))
        }
        return result
    }
}
