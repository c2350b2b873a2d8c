@_spi(Training) @_spi(Calibration) import FaceKit
import FaceKitDatasets
import Foundation

/// Head pose against GENKI-4K's labels: error per axis for the mean face fitted on all 14 of its
/// points and on subsets, to find what limits pitch.
///
/// GENKI gives yaw, pitch and roll in radians; their signs are matched to ML Kit's by the sign
/// of the correlation (printed). "Offset removed" subtracts the mean signed error fitted on the
/// other half of the files (odd and even positions of labels.csv swap roles).
struct HeadPoseStudy {
    var options: TrainingOptions

    static let variants: [(name: String, excluded: Set<Int>)] = [
        ("all 14 points (shipped)", []),
        ("without the chin (8)", [8]),
        ("without mouth and chin (48, 54, 57, 8)", [48, 54, 57, 8]),
        ("eyes and nostrils only", [17, 21, 22, 26, 48, 54, 57, 8]),
    ]

    func run() throws {
        var detectorOptions = FaceDetectorOptions()
        detectorOptions.minFaceSize = 0.2
        let detector = try FaceDetector(options: detectorOptions, models: TrainingOptions.models)
        let cache = try ShapeCache(file: options.cache)
        let entries = try SmileLabels.read(options.data.appendingPathComponent("smile/genki4k/labels.csv").path)
        // Per face: labels (degrees) and each variant's estimate.
        var labels: [[Double]] = []
        var estimates: [[[Double]]] = []
        var smiling: [Bool] = []
        // A second, independent reading of pitch and yaw: YuNet's five keypoints (another network
        // than the 68-point model), as unitless proxies.
        var proxies: [[Double]] = []
        var missed = 0
        for entry in entries {
            guard let yaw = entry.yaw, let pitch = entry.pitch, let roll = entry.roll,
                let image = try? FaceImage(contentsOfFile: entry.file),
                let shape = try cache.shape(for: entry.file, compute: { try largestFace(in: image, detector: detector)?.shape }),
                shape.isPlausible
            else {
                missed += 1
                continue
            }
            guard let keypoints = try detector.detectorOutput(in: image).max(by: { $0.box.width < $1.box.width })?.keypoints
            else {
                missed += 1
                continue
            }
            proxies.append(Self.proxies(keypoints))
            labels.append([pitch, yaw, roll].map { $0 * 180 / .pi })
            smiling.append(entry.smiling)
            estimates.append(Self.variants.map { variant in
                let a = FaceDetector.headEulerAngles(
                    of: shape, imageSize: (image.width, image.height), excluding: variant.excluded)
                return [a.x, a.y, a.z]
            })
        }
        try cache.save()
        let axes = ["pitch (X)", "yaw (Y)", "roll (Z)"]
        // Match GENKI's signs to ML Kit's with the shipped variant.
        let signs = (0..<3).map { axis in
            correlation(estimates.map { $0[0][axis] }, labels.map { $0[axis] }) < 0 ? -1.0 : 1.0
        }
        var lines = [
            "### Head pose against GENKI-4K's labels (\(labels.count) development faces, \(missed) without a face)", "",
            "GENKI's signs against ML Kit's: pitch \(signs[0] > 0 ? "same" : "opposite"), yaw "
                + "\(signs[1] > 0 ? "same" : "opposite"), roll \(signs[2] > 0 ? "same" : "opposite").", "",
            "| points | axis | mean abs. error | mean signed error | correlation | mean abs. error, offset removed (2-fold) |",
            "|---|---|---|---|---|---|",
        ]
        for (v, variant) in Self.variants.enumerated() {
            for axis in 0..<3 {
                let truth = labels.map { $0[axis] * signs[axis] }
                let estimate = estimates.map { $0[v][axis] }
                let errors = zip(estimate, truth).map { $0 - $1 }
                var corrected: [Double] = []
                for half in 0..<2 {
                    let other = errors.indices.filter { $0 % 2 != half }
                    let offset = other.map { errors[$0] }.reduce(0, +) / Double(other.count)
                    corrected += errors.indices.filter { $0 % 2 == half }.map { abs(errors[$0] - offset) }
                }
                lines.append(
                    "| \(variant.name) | \(axes[axis]) | \(f2(mean(errors.map(abs)))) | \(f2(mean(errors))) | "
                        + "\(f2(correlation(estimate, truth))) | \(f2(mean(corrected))) |")
            }
        }
        lines += agreementTable(
            ours: estimates.map { [$0[0][0], $0[0][1]] }, labels: labels.map { [$0[0] * signs[0], $0[1] * signs[1]] },
            proxies: proxies)
        // Expression: does a smile move the estimate? Mean signed pitch error, smiling vs not.
        lines += ["", "Mean signed pitch error by expression (shipped points): smiling "
            + f2(mean(estimates.indices.filter { smiling[$0] }.map { estimates[$0][0][0] - labels[$0][0] * signs[0] }))
            + ", not smiling "
            + f2(mean(estimates.indices.filter { !smiling[$0] }.map { estimates[$0][0][0] - labels[$0][0] * signs[0] }))
            + " degrees."]
        print(lines.joined(separator: "\n"))
    }

    /// Pitch and yaw proxies from YuNet's keypoints (right eye, left eye, nose, right and left
    /// mouth corner): how far down the nose sits between the eyes' and the mouth's midpoints
    /// (negated, so that up is positive, as for pitch), and how far right of the eyes' midpoint,
    /// across the eye axis, in eye distances.
    static func proxies(_ k: [CGPoint]) -> [Double] {
        let eyes = CGPoint(x: (k[0].x + k[1].x) / 2, y: (k[0].y + k[1].y) / 2)
        let mouth = CGPoint(x: (k[3].x + k[4].x) / 2, y: (k[3].y + k[4].y) / 2)
        let down = (mouth.x - eyes.x, mouth.y - eyes.y)
        let across = (k[1].x - k[0].x, k[1].y - k[0].y)
        let nose = (k[2].x - eyes.x, k[2].y - eyes.y)
        let downLength2 = down.0 * down.0 + down.1 * down.1
        let acrossLength2 = across.0 * across.0 + across.1 * across.1
        return [
            -(nose.0 * down.0 + nose.1 * down.1) / max(downLength2, 1e-9),
            (nose.0 * across.0 + nose.1 * across.1) / max(acrossLength2, 1e-9),
        ]
    }

    /// Three readings of the same angle whose errors are independent (FaceKit's, GENKI's label,
    /// the keypoint proxy) let each one's share of true signal be told from their pairwise
    /// correlations: the signal share (reliability) of A is r_AB r_AC / r_BC.
    func agreementTable(ours: [[Double]], labels: [[Double]], proxies: [[Double]]) -> [String] {
        var lines = [
            "", "Agreement of three independent readings (correlations), and each reading's share of true signal:", "",
            "| axis | FaceKit - GENKI | FaceKit - keypoints | GENKI - keypoints | FaceKit's signal share | GENKI's signal share |",
            "|---|---|---|---|---|---|",
        ]
        for (axis, name) in ["pitch (X)", "yaw (Y)"].enumerated() {
            let o = ours.map { $0[axis] }, l = labels.map { $0[axis] }, p = proxies.map { $0[axis] }
            let ol = correlation(o, l), op = correlation(o, p), lp = correlation(l, p)
            lines.append(
                "| \(name) | \(f2(ol)) | \(f2(op)) | \(f2(lp)) | \(f2(ol * op / lp)) | \(f2(ol * lp / op)) |")
        }
        return lines
    }

    private func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(values.count, 1)) }
    private func f2(_ value: Double) -> String { String(format: "%.2f", value) }

    private func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let ma = mean(a), mb = mean(b)
        let cov = zip(a, b).map { ($0 - ma) * ($1 - mb) }.reduce(0, +)
        let va = a.map { ($0 - ma) * ($0 - ma) }.reduce(0, +), vb = b.map { ($0 - mb) * ($0 - mb) }.reduce(0, +)
        return cov / max((va * vb).squareRoot(), 1e-12)
    }
}
