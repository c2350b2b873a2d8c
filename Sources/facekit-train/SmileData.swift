@_spi(Training) import FaceKit
import FaceKitDatasets
import Foundation

/// GENKI-4K faces as smile examples, split by file number.
struct SmileData {
    var train: [Example] = []
    var heldOut: [Example] = []
    /// The 68 points of each face, for the eye model's open-eye examples (GENKI's people have
    /// their eyes open in nearly every photo).
    var trainShapes: [FaceShape] = []
    var heldOutShapes: [FaceShape] = []
    /// Labelled files where no face (or no usable shape) was found.
    var missed = 0

    static func load(data: URL, detector: FaceDetector, cache: ShapeCache) throws -> SmileData {
        var result = SmileData()
        let entries = try SmileLabels.read(data.appendingPathComponent("smile/genki4k/labels.csv").path)
        for (i, entry) in entries.enumerated() {
            if i % 200 == 0 { FileHandle.standardError.write(Data("smile: \(i)/\(entries.count)\n".utf8)) }
            let shape = try cache.shape(for: entry.file) {
                guard let image = try? FaceImage(contentsOfFile: entry.file) else { return nil }
                return try largestFace(in: image, detector: detector)?.shape
            }
            guard let number = SmileLabels.number(of: entry.file), let shape,
                let features = SmileFeatures.features(of: shape)
            else {
                result.missed += 1
                continue
            }
            let example = Example(features: features, label: entry.smiling, source: entry.file)
            if number % 4 == 1 {
                result.train.append(example)
                result.trainShapes.append(shape)
            } else {
                result.heldOut.append(example)
                result.heldOutShapes.append(shape)
            }
        }
        return result
    }
}
