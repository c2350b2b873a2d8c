import FaceKit
import FaceKitDatasets
import Foundation

/// `facekit-train small-eyes`: how the eye-state network reads eyes a few pixels wide, and the
/// correction (``SmallEyeCorrection``) that keeps its probability honest there.
///
/// Faces: the network's test split, which it never learned from (every 10th CEW face and
/// open-faces crop by file name, as `scripts/eye_model.py` and the tests take it). Each is shrunk
/// by pixel area, as a camera or a resize makes a small face, until its outer eye corners are
/// 12 ... 32 px apart, set on a grey canvas three times its size, and analysed as FaceKit does at
/// run time: detection, the 68 points of the shrunk face, its eye patches, the network; once as
/// it is and once saved as a JPEG, as photos are.
///
/// The correction is fitted on the JPEG copies' eyes under 24 px, closed and open eyes weighing
/// the same (as the network's own calibration): `z + u (alpha z + beta)` on the network's
/// log-odds `z`, `u = log2(24 / distance)`. The tables show it cross-fitted (each half of the
/// faces corrected by the fit on the other half); the constants printed last are fitted on all.
struct SmallEyeStudy {
    var options: TrainingOptions

    /// The outer-eye-corner distances the faces are shrunk to.
    static let distances: [Double] = [12, 14, 16, 18, 20, 22, 24, 28, 32]
    static let jpegQuality = 70

    struct Key: Hashable {
        var target: Double
        var compressed: Bool
    }

    struct Eye {
        var open: Bool
        /// The face's index in its set: the halves of the cross-fit are even and odd faces.
        var face: Int
        var target: Double
        /// Saved as a JPEG of quality ``jpegQuality`` after shrinking, as web photos are.
        var compressed: Bool
        /// The distance FaceKit measured on the shrunk face (what run time sees).
        var distance: Double
        /// The network's probability (its calibration for photos included).
        var probability: Double
    }

    func run() throws {
        let detector = try TrainingOptions.detector()
        let network = try EyeStateModel(modelPath: TrainingOptions.models.path(for: .eyeState))
        var eyes: [Eye] = []
        var missed: [Key: Int] = [:]
        var tried: [Double: Int] = [:]
        for (folder, open) in [("eyes/cew-closed", false), ("eyes/open-faces", true)] {
            let url = options.data.appendingPathComponent(folder)
            let names = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".jpg") }.sorted()
            for (index, name) in names.enumerated() where index % 10 == 0 {
                let image = try FaceImage(contentsOfFile: url.appendingPathComponent(name).path)
                guard let full = try largestFace(in: image, detector: detector) else { continue }
                let distance = full.shape.interOcularDistance
                for target in Self.distances where target < 0.95 * distance {
                    tried[target, default: 0] += 1
                    let scale = target / distance
                    let small = try image.resized(
                        width: max(1, Int((Double(image.width) * scale).rounded())),
                        height: max(1, Int((Double(image.height) * scale).rounded())))
                    let clean = try PhotoVariant(image: small, faces: []).padded(by: 1).image
                    let jpeg = try FaceImage(data: clean.encoded(fileExtension: "jpg", quality: Self.jpegQuality))
                    for (canvas, compressed) in [(clean, false), (jpeg, true)] {
                        guard let found = try largestFace(in: canvas, detector: detector) else {
                            missed[Key(target: target, compressed: compressed), default: 0] += 1
                            continue
                        }
                        let patches = try [EyeFeatures.Eye.left, .right].compactMap {
                            try EyeStateModel.patch(of: $0, shape: found.shape, in: canvas)
                        }
                        for probability in try network.openProbabilities(patches) {
                            eyes.append(Eye(
                                open: open, face: index / 10, target: target, compressed: compressed,
                                distance: found.shape.interOcularDistance, probability: probability))
                        }
                    }
                }
            }
            FileHandle.standardError.write(Data("small-eyes: \(folder) done\n".utf8))
        }
        // Fitted on the JPEG copies, as photos are saved; the halves for the tables' corrected columns.
        let fittedOn = eyes.filter { $0.compressed && $0.distance < SmallEyeCorrection.fullSizeDistance }
        let halves = [0, 1].map { half in Self.fit(fittedOn.filter { $0.face % 2 != half }) }
        for compressed in [false, true] {
            print(Self.table(eyes: eyes.filter { $0.compressed == compressed }, compressed: compressed, halves: halves, tried: tried, missed: missed)
                .joined(separator: "\n") + "\n")
        }
        let all = Self.fit(fittedOn)
        print(String(
            format: "SmallEyeCorrection fitted on the %d JPEG eyes under 24 px: alpha = %.4f, beta = %.4f", fittedOn.count,
            all.alpha, all.beta))
    }

    /// One condition's table: the network's reading by size, and corrected by the fit on the
    /// other half of the faces.
    static func table(
        eyes: [Eye], compressed: Bool, halves: [SmallEyeCorrection], tried: [Double: Int], missed: [Key: Int]
    ) -> [String] {
        let raw = eyes.map(\.probability)
        let crossed = eyes.map { halves[$0.face % 2].corrected($0.probability, interOcularDistance: $0.distance) }
        var lines = [
            "### The network's test split shrunk" + (compressed ? ", then saved as JPEG of quality \(jpegQuality)" : ""), "",
            "| eye-corner distance | faces shrunk | found | closed eyes | read closed | open eyes | read open | AUC | "
                + "corrected: read closed | read open | balanced Brier before | after |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for target in distances {
            let rows = eyes.indices.filter { eyes[$0].target == target }
            let closed = rows.filter { !eyes[$0].open }, open = rows.filter { eyes[$0].open }
            guard !closed.isEmpty, !open.isEmpty else { continue }
            func share(_ rows: [Int], _ values: [Double], _ holds: (Double) -> Bool) -> String {
                String(format: "%.3f", Double(rows.filter { holds(values[$0]) }.count) / Double(rows.count))
            }
            let auc = ClassifierMetrics.rocAUC(scores: rows.map { raw[$0] }, labels: rows.map { eyes[$0].open })
            func brier(_ values: [Double]) -> String {
                let error = { (rows: [Int]) in rows.reduce(0) { $0 + pow(values[$1] - (eyes[$1].open ? 1 : 0), 2) } / Double(rows.count) }
                return String(format: "%.3f", (error(closed) + error(open)) / 2)
            }
            let faces = tried[target] ?? 0
            lines.append(
                "| \(Int(target)) px | \(faces) | \(faces - (missed[Key(target: target, compressed: compressed)] ?? 0)) | \(closed.count) | \(share(closed, raw) { $0 < 0.5 }) | "
                    + "\(open.count) | \(share(open, raw) { $0 >= 0.5 }) | \(String(format: "%.3f", auc)) | "
                    + "\(share(closed, crossed) { $0 < 0.5 }) | \(share(open, crossed) { $0 >= 0.5 }) | \(brier(raw)) | \(brier(crossed)) |")
        }
        lines += [
            "", "Rows by the distance the faces were shrunk to; the correction uses the distance FaceKit measures.",
            "Brier: the mean of closed and open eyes' squared errors. Corrected: by the fit on the other half of the faces.",
        ]
        return lines
    }

    /// Newton's method on the weighted log-loss of `z + u (alpha z + beta)`, closed and open eyes
    /// weighing the same.
    static func fit(_ eyes: [Eye]) -> SmallEyeCorrection {
        let openCount = Double(eyes.filter(\.open).count), closedCount = Double(eyes.count) - openCount
        let rows = eyes.map { eye -> (z: Double, u: Double, y: Double, w: Double) in
            (LogisticModel.logOdds(eye.probability), SmallEyeCorrection.smallness(eye.distance), eye.open ? 1 : 0,
             0.5 / (eye.open ? openCount : closedCount))
        }
        var (alpha, beta) = (0.0, 0.0)
        for _ in 0..<50 {
            var (ga, gb, haa, hab, hbb) = (0.0, 0.0, 0.0, 0.0, 0.0)
            for row in rows {
                let p = 1 / (1 + exp(-(row.z + row.u * (alpha * row.z + beta))))
                let (xa, xb) = (row.u * row.z, row.u)
                let r = row.w * (p - row.y), h = row.w * max(p * (1 - p), 1e-12)
                ga += r * xa
                gb += r * xb
                haa += h * xa * xa
                hab += h * xa * xb
                hbb += h * xb * xb
            }
            let determinant = haa * hbb - hab * hab
            guard determinant > 1e-15 else { break }
            alpha -= (hbb * ga - hab * gb) / determinant
            beta -= (haa * gb - hab * ga) / determinant
        }
        return SmallEyeCorrection(alpha: alpha, beta: beta)
    }
}
