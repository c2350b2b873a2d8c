import FaceKit
import FaceKitDatasets
import Foundation

/// GENKI-4K and SMILEsmileD faces as smile examples, each split by file number.
struct SmileData {
    var train: [Example] = []
    /// GENKI-4K's held-out faces (files numbered 3 mod 4).
    var heldOut: [Example] = []
    /// SMILEsmileD's held-out faces (odd file numbers): 64x64 grey crops from LFW.
    var heldOutSmileD: [Example] = []
    /// The 68 points of each face, for the eye model's open-eye examples (GENKI's people have
    /// their eyes open in nearly every photo).
    var trainShapes: [FaceShape] = []
    var heldOutShapes: [FaceShape] = []
    /// The detector box of each held-out face (the largest face, as for its shape), for the
    /// haarcascade_smile baseline. The ShapeCache keeps only points, so a held-out image whose
    /// shape came from the cache is detected again.
    var heldOutBoxes: [CGRect] = []
    /// Labelled files where no face (or no usable shape) was found.
    var missed = 0
    var missedSmileD = 0

    static func load(data: URL, detector: FaceDetector, cache: ShapeCache) throws -> SmileData {
        var result = SmileData()
        let entries = try SmileLabels.read(data.appendingPathComponent("smile/genki4k/labels.csv").path)
        for (i, entry) in entries.enumerated() {
            if i % 200 == 0 { FileHandle.standardError.write(Data("smile: \(i)/\(entries.count)\n".utf8)) }
            var box: CGRect?
            let shape = try cache.shape(for: entry.file) {
                guard let image = try? FaceImage(contentsOfFile: entry.file) else { return nil }
                let face = try largestFace(in: image, detector: detector)
                box = face?.face.frame
                return face?.shape
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
                result.heldOutBoxes.append(try box ?? faceBox(entry.file, detector: detector))
            }
        }
        try result.loadSmileD(data: data, detector: detector, cache: cache)
        return result
    }

    /// SMILEsmileD: even file numbers train, odd ones are held out (`pos_` and `neg_` files are
    /// numbered separately, so both labels fall on both sides).
    /// YuNet finds faces in these tight 64x64 crops as they are (97.5%); padding them with
    /// repeated edge pixels, tried first, lost a third of them.
    private mutating func loadSmileD(data: URL, detector: FaceDetector, cache: ShapeCache) throws {
        let entries = try SmileLabels.read(data.appendingPathComponent("smile/smilesmiled/labels.csv").path)
        for (i, entry) in entries.enumerated() {
            if i % 1000 == 0 { FileHandle.standardError.write(Data("smile: SMILEsmileD \(i)/\(entries.count)\n".utf8)) }
            let shape = try cache.shape(for: entry.file) {
                guard let image = try? FaceImage(contentsOfFile: entry.file) else { return nil }
                return try largestFace(in: image, detector: detector)?.shape
            }
            guard let number = SmileLabels.number(of: entry.file), let shape,
                let features = SmileFeatures.features(of: shape)
            else {
                missedSmileD += 1
                continue
            }
            let example = Example(features: features, label: entry.smiling, source: entry.file)
            if number % 2 == 0 { train.append(example) } else { heldOutSmileD.append(example) }
        }
    }

    /// The largest face's box in a file whose shape is cached; detection is deterministic, so
    /// it is the face the shape belongs to.
    private static func faceBox(_ file: String, detector: FaceDetector) throws -> CGRect {
        guard let face = try largestFace(in: FaceImage(contentsOfFile: file), detector: detector) else {
            throw CacheMismatch(message: "\(file): cached shape but no face found now; delete the --cache file")
        }
        return face.face.frame
    }

    struct CacheMismatch: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
