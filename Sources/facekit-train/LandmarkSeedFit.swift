import FaceKit
import FaceKitDatasets
import Foundation

/// Fits ``LandmarkSeed``, the box the 68-point model starts from for a face YuNet found.
///
/// The 68-point model was trained on dlib's HOG boxes, so the target is the HOG box of the same
/// face: both detectors run on the fitting photos, and each YuNet face is paired with the HOG box
/// it overlaps best (IoU >= 0.3, HOG box centre inside YuNet's box). Two mappings are compared:
///
/// - box only: the seed box centred on YuNet's box centre plus an offset, its side a multiple of
///   YuNet's width (what accurate mode's CNN mapping did);
/// - keypoints: centred on the mean of YuNet's five keypoints plus an offset, its side a linear
///   combination of YuNet's width and the keypoints' spread.
///
/// Each is scored leave-one-set-out over the three fitting sets (fitted on two, scored on the
/// third): the IoU of the seed box with the HOG box, and the mean distance between the 68 points
/// placed from the seed box and those placed from the HOG box (over the outer-eye-corner
/// distance). It prints both, and the constants of the mapping fitted on all three sets, to be
/// copied into Sources/FaceKit/Detection/LandmarkSeed.swift.
///
/// Fitting sets: the dlib-faces images of training.xml, identities/train, and the GENKI-4K files
/// numbered 1 mod 4 (the smile model's training split). The evaluation sets (testing.xml,
/// CompreFace, Helen, GENKI 3 mod 4) are not used.
struct LandmarkSeedFit {
    var options: TrainingOptions

    /// One YuNet face paired with the HOG box of the same face.
    struct Pair {
        var features: LandmarkSeed.Features
        var yunetBox: CGRect
        var hogBox: CGRect
        var image: String
    }

    /// A mapping's constants: centre offset (x, y) in YuNet widths, side = a x width + b x spread.
    struct Mapping {
        var usesKeypoints: Bool
        var xOffset: Double, yOffset: Double, widthWeight: Double, spreadWeight: Double

        func box(_ pair: Pair) -> CGRect {
            let f = pair.features
            let centre = usesKeypoints ? f.centre : CGPoint(x: pair.yunetBox.midX, y: pair.yunetBox.midY)
            let side = widthWeight * f.width + spreadWeight * f.spread
            return CGRect(
                x: centre.x + xOffset * f.width - side / 2, y: centre.y + yOffset * f.width - side / 2,
                width: side, height: side)
        }

        /// Least squares on the pairs (offsets: median, robust to a mismatched pair).
        static func fit(_ pairs: [Pair], usesKeypoints: Bool) -> Mapping {
            func centre(_ p: Pair) -> CGPoint {
                usesKeypoints ? p.features.centre : CGPoint(x: p.yunetBox.midX, y: p.yunetBox.midY)
            }
            let dx = median(pairs.map { (Double($0.hogBox.midX) - centre($0).x) / $0.features.width })
            let dy = median(pairs.map { (Double($0.hogBox.midY) - centre($0).y) / $0.features.width })
            let sides = pairs.map { Double($0.hogBox.width) }
            if !usesKeypoints {
                // Typed sums: the one-expression form took the type checker 8 s.
                let widthTimesSide: Double = zip(sides, pairs).map { side, pair in side * pair.features.width }.reduce(0, +)
                let widthSquared: Double = pairs.map { $0.features.width * $0.features.width }.reduce(0, +)
                let weight = widthTimesSide / widthSquared
                return Mapping(usesKeypoints: false, xOffset: dx, yOffset: dy, widthWeight: weight, spreadWeight: 0)
            }
            // Two unknowns: solve the 2x2 normal equations.
            let w = pairs.map(\.features.width), s = pairs.map(\.features.spread)
            let ww = zip(w, w).map(*).reduce(0, +), ss = zip(s, s).map(*).reduce(0, +), ws = zip(w, s).map(*).reduce(0, +)
            let wy = zip(w, sides).map(*).reduce(0, +), sy = zip(s, sides).map(*).reduce(0, +)
            let determinant = ww * ss - ws * ws
            return Mapping(
                usesKeypoints: true, xOffset: dx, yOffset: dy, widthWeight: (wy * ss - ws * sy) / determinant,
                spreadWeight: (ww * sy - ws * wy) / determinant)
        }
    }

    func run() throws {
        let models = TrainingOptions.models
        var detectorOptions = FaceDetectorOptions()
        detectorOptions.minFaceSize = 0.05
        detectorOptions.minDetectionScore = 0.5
        let yunet = try FaceDetector(options: detectorOptions, models: models, detector: .yunet)
        let hog = try FaceDetector(options: detectorOptions, models: models, detector: .dlib)

        var sets: [(name: String, pairs: [Pair])] = []
        for (name, photos) in try fittingSets() {
            var pairs: [Pair] = []
            for path in photos {
                let image = try FaceImage(contentsOfFile: path)
                let hogBoxes = try hog.process(image).map(\.frame)
                for face in try yunet.detectorOutput(in: image) {
                    guard let best = hogBoxes.max(by: { $0.intersectionOverUnion(face.box) < $1.intersectionOverUnion(face.box) }),
                        best.intersectionOverUnion(face.box) >= 0.3, face.box.contains(CGPoint(x: best.midX, y: best.midY))
                    else { continue }
                    pairs.append(Pair(
                        features: LandmarkSeed.Features(yunetBox: face.box, keypoints: face.keypoints),
                        yunetBox: face.box, hogBox: best, image: path))
                }
            }
            FileHandle.standardError.write(Data("landmark-seed: \(name): \(photos.count) photos, \(pairs.count) pairs\n".utf8))
            sets.append((name, pairs))
        }

        print("Leave-one-set-out: fitted on the other two sets, scored on the named one. IoU: seed box")
        print("against the HOG box; shape gap: mean distance between the 68 points placed from the seed")
        print("box and from the HOG box, over the outer-eye-corner distance.\n")
        var rows: [[String]] = []
        for usesKeypoints in [false, true] {
            for (index, held) in sets.enumerated() {
                let training = sets.enumerated().filter { $0.offset != index }.flatMap(\.element.pairs)
                let mapping = Mapping.fit(training, usesKeypoints: usesKeypoints)
                let (iou, gap) = try score(mapping, on: held.pairs, detector: hog)
                rows.append([usesKeypoints ? "keypoints" : "box only", held.name, "\(held.pairs.count)",
                             String(format: "%.3f", iou), String(format: "%.4f", gap)])
            }
        }
        print("| mapping | held-out set | pairs | mean IoU | mean shape gap |")
        print("|---|---|---|---|---|")
        for row in rows { print("| " + row.joined(separator: " | ") + " |") }
        for usesKeypoints in [false, true] {
            let m = Mapping.fit(sets.flatMap(\.pairs), usesKeypoints: usesKeypoints)
            print(String(
                format: "\n%@, fitted on all %d pairs: xOffset = %.4f, yOffset = %.4f, widthWeight = %.4f, spreadWeight = %.4f",
                usesKeypoints ? "keypoints" : "box only", sets.flatMap(\.pairs).count, m.xOffset, m.yOffset,
                m.widthWeight, m.spreadWeight))
        }
    }

    /// Mean IoU with the HOG box, and mean 68-point gap between seeding from the mapped box and
    /// from the HOG box.
    func score(_ mapping: Mapping, on pairs: [Pair], detector: FaceDetector) throws -> (Double, Double) {
        var ious: [Double] = [], gaps: [Double] = []
        var images: [String: FaceImage] = [:]
        for pair in pairs {
            let seed = mapping.box(pair)
            ious.append(seed.intersectionOverUnion(pair.hogBox))
            let image = try images[pair.image] ?? FaceImage(contentsOfFile: pair.image)
            images = [pair.image: image]
            let fromSeed = try detector.shape(in: image, seedBox: seed)
            let fromHOG = try detector.shape(in: image, seedBox: pair.hogBox)
            let scale = fromHOG.interOcularDistance
            let gap = zip(fromSeed.points, fromHOG.points).map { $0.distance(to: $1) }.reduce(0, +) / 68
            gaps.append(scale > 0 ? gap / scale : .nan)
        }
        return (mean(ious), mean(gaps.filter { !$0.isNaN }))
    }

    func fittingSets() throws -> [(String, [String])] {
        let data = options.data
        let training = try LabelledBoxes(contentsOf: data.appendingPathComponent("photos/dlib-faces/training.xml").path)
        let identities = data.appendingPathComponent("photos/identities/train")
        let people = try FileManager.default.contentsOfDirectory(atPath: identities.path).sorted()
        let portraits = try people.flatMap { person in
            try FileManager.default.contentsOfDirectory(atPath: identities.appendingPathComponent(person).path).sorted()
                .map { identities.appendingPathComponent(person).appendingPathComponent($0).path }
        }
        let genki = try SmileLabels.read(data.appendingPathComponent("smile/genki4k/labels.csv").path)
            .map(\.file).filter { SmileLabels.number(of: $0).map { $0 % 4 == 1 } ?? false }
        return [("dlib-faces training.xml", training.images.map(\.file)), ("identities/train", portraits),
                ("GENKI-4K 1 mod 4", genki)]
    }
}

private func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

private func mean(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count) }

extension CGPoint {
    fileprivate func distance(to other: CGPoint) -> Double { ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot() }
}
