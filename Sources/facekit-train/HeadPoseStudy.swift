import FaceKit
import FaceKitDatasets
import Foundation

/// Head pose against GENKI-4K's labels: fits the 68-point mean face (``MeanFaceFit``), chooses
/// the camera's focal length and the model's depth scale, and reports the error per axis on
/// faces the model was not fitted on.
///
/// Two folds: the faces at even and at odd positions of labels.csv. On each half a model is
/// factorised, its focal length and depth scale are chosen (the smallest pitch plus yaw mean
/// absolute error on that half) and its level is set (minus that half's mean signed pitch error); it
/// is then measured on the other half. The shipped model is the same fit on all the faces; its
/// constants are printed for MeanFace.swift. GENKI gives yaw, pitch and roll in radians; their
/// signs are matched to ML Kit's by the sign of the correlation (printed).
struct HeadPoseStudy {
    var options: TrainingOptions

    typealias Model = [(dlibIndex: Int, x: Double, y: Double, z: Double)]

    static let focalLengths: [Double] = [1, 2, 4, 8, 16]
    static let depthScales: [Double] = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0]

    /// The faces with labels, their shapes and image sizes.
    struct Faces {
        var shapes: [FaceShape] = []
        var sizes: [(width: Int, height: Int)] = []
        /// GENKI's pitch, yaw and roll in degrees, signs as in the file.
        var labels: [[Double]] = []
        var smiling: [Bool] = []
        /// YuNet's keypoint proxies for pitch and yaw (see ``proxies(_:)``).
        var proxies: [[Double]] = []
        var missed = 0
    }

    /// A model with its camera and level, and the faces it was chosen on.
    struct Fit {
        var model: Model
        var focalLengthInImageWidths: Double
        var depthScale: Double
        var levelPitchDegrees: Double
    }

    func run() throws {
        let faces = try load()
        let all = Array(faces.labels.indices)
        let halves = [all.filter { $0 % 2 == 0 }, all.filter { $0 % 2 == 1 }]
        let shipped = FaceDetector.headModel
        let shippedAngles = angles(
            faces, all, model: shipped.points, focal: shipped.focalLengthInImageWidths,
            level: shipped.levelPitchDegrees)
        // Match GENKI's signs to ML Kit's with the shipped model.
        let signs = (0..<3).map { axis in
            correlation(shippedAngles.map { $0[axis] }, faces.labels.map { $0[axis] }) < 0 ? -1.0 : 1.0
        }
        let truth = faces.labels.map { zip($0, signs).map { $0 * $1 } }

        // Each half's model, and the grid it was chosen from, measured on the other half.
        var fits: [Fit] = []
        var heldOutGrid: [[Double]] = Array(repeating: [0, 0], count: Self.focalLengths.count * Self.depthScales.count)
        var heldOut = Array(repeating: [0.0, 0, 0], count: all.count)
        var heldOutBefore = heldOut
        for (h, half) in halves.enumerated() {
            let other = halves[1 - h]
            let factorised = MeanFaceFit.fit(half.map { faces.shapes[$0] }, alignedTo: AnthropometricHeadModel.points)
            let (fit, grid) = choose(factorised, faces, half, truth)
            fits.append(fit)
            for (g, candidate) in grid.enumerated() {
                let estimates = angles(
                    faces, other, model: candidate.model, focal: candidate.focalLengthInImageWidths,
                    level: candidate.levelPitchDegrees)
                for axis in 0..<2 {
                    heldOutGrid[g][axis] +=
                        zip(estimates, other).map { abs($0[axis] - truth[$1][axis]) }.reduce(0, +) / Double(all.count)
                }
            }
            for (estimate, i) in zip(
                angles(faces, other, model: fit.model, focal: fit.focalLengthInImageWidths, level: fit.levelPitchDegrees),
                other)
            {
                heldOut[i] = estimate
            }
            // The previous model (14 points, focal length one image width), levelled on this half.
            let level = -meanSignedPitchError(AnthropometricHeadModel.points, focal: 1, faces, half, truth)
            for (estimate, i) in zip(
                angles(faces, other, model: AnthropometricHeadModel.points, focal: 1, level: level), other)
            {
                heldOutBefore[i] = estimate
            }
        }
        let factorisedAll = MeanFaceFit.fit(faces.shapes, alignedTo: AnthropometricHeadModel.points)
        let (fitAll, _) = choose(factorisedAll, faces, all, truth)

        let axes = ["pitch (X)", "yaw (Y)", "roll (Z)"]
        var lines = [
            "### Head pose against GENKI-4K's labels (\(all.count) development faces, \(faces.missed) without a face)", "",
            "GENKI's signs against ML Kit's: pitch \(signs[0] > 0 ? "same" : "opposite"), yaw "
                + "\(signs[1] > 0 ? "same" : "opposite"), roll \(signs[2] > 0 ? "same" : "opposite"). "
                + "Each half's numbers come from a model fitted and chosen on the other half (even and odd "
                + "positions of labels.csv), pooled.", "",
            "| model | axis | mean abs. error | mean signed error | correlation |",
            "|---|---|---|---|---|",
        ]
        let rows: [(String, [[Double]])] = [
            ("14-point anthropometric model, focal length 1 image width (before)", heldOutBefore),
            ("68-point factorised model, focal length and depth scale chosen (held out)", heldOut),
            ("shipped model (fitted on all faces; not held out)", shippedAngles),
        ]
        for (name, estimates) in rows {
            for axis in 0..<3 {
                let estimate = estimates.map { $0[axis] }, label = truth.map { $0[axis] }
                let errors = zip(estimate, label).map { $0 - $1 }
                lines.append(
                    "| \(name) | \(axes[axis]) | \(f2(mean(errors.map(abs)))) | \(f2(mean(errors))) | "
                        + "\(f2(correlation(estimate, label))) |")
            }
        }
        lines += ["", "Chosen on each half (focal length in image widths, depth scale, level in degrees of pitch):", ""]
        for (h, fit) in fits.enumerated() {
            lines.append(
                "- fitted on the \(h == 0 ? "even" : "odd") positions: focal length \(f2(fit.focalLengthInImageWidths)), "
                    + "depth scale \(f2(fit.depthScale)), level \(f2(fit.levelPitchDegrees))")
        }
        lines.append(
            "- fitted on all faces (shipped): focal length \(f2(fitAll.focalLengthInImageWidths)), depth scale "
                + "\(f2(fitAll.depthScale)), level \(f2(fitAll.levelPitchDegrees))")
        lines += [
            "", "Held-out mean absolute error, pitch / yaw, of the factorised models for each focal length (columns, "
                + "in image widths) and depth scale (rows), each level set on the half the model was fitted on:", "",
            "| depth scale | " + Self.focalLengths.map { "f = \(f2($0))" }.joined(separator: " | ") + " |",
            "|---|" + Self.focalLengths.map { _ in "---|" }.joined(),
        ]
        for (d, depth) in Self.depthScales.enumerated() {
            let cells = Self.focalLengths.indices.map { f -> String in
                let cell = heldOutGrid[f * Self.depthScales.count + d]
                return "\(f2(cell[0])) / \(f2(cell[1]))"
            }
            lines.append("| \(f2(depth)) | " + cells.joined(separator: " | ") + " |")
        }
        lines += agreementTable(
            ours: shippedAngles.map { [$0[0], $0[1]] }, labels: truth.map { [$0[0], $0[1]] }, proxies: faces.proxies)
        lines += [
            "", "Mean signed pitch error by expression (shipped model): smiling "
                + f2(mean(all.filter { faces.smiling[$0] }.map { shippedAngles[$0][0] - truth[$0][0] }))
                + ", not smiling "
                + f2(mean(all.filter { !faces.smiling[$0] }.map { shippedAngles[$0][0] - truth[$0][0] })) + " degrees.",
        ]
        lines += ["", "MeanFace.swift, fitted on all faces:", ""] + constants(fitAll)
        print(lines.joined(separator: "\n"))
    }

    /// The focal length and depth scale with the smallest pitch plus yaw mean absolute error on
    /// `faces`, each candidate levelled on them; and every candidate, grid order (focal length
    /// major).
    private func choose(_ factorised: [SIMD3<Double>], _ faces: Faces, _ indices: [Int], _ truth: [[Double]])
        -> (Fit, [Fit])
    {
        var candidates: [(fit: Fit, error: Double)] = []
        for focal in Self.focalLengths {
            for depth in Self.depthScales {
                let model: Model = factorised.enumerated().map { ($0.offset, $0.element.x, $0.element.y, $0.element.z * depth) }
                let level = -meanSignedPitchError(model, focal: focal, faces, indices, truth)
                let estimates = angles(faces, indices, model: model, focal: focal, level: level)
                let error: Double = (0..<2).map { (axis: Int) -> Double in
                    mean(zip(estimates, indices).map { (estimate: [Double], index: Int) -> Double in
                        abs(estimate[axis] - truth[index][axis])
                    })
                }.reduce(0, +)
                candidates.append(
                    (Fit(model: model, focalLengthInImageWidths: focal, depthScale: depth, levelPitchDegrees: level), error))
            }
        }
        return (candidates.min { $0.error < $1.error }!.fit, candidates.map(\.fit))
    }

    /// FaceKit's mean pitch minus the labels' with the model unlevelled: the level is its negation.
    private func meanSignedPitchError(
        _ model: Model, focal: Double, _ faces: Faces, _ indices: [Int], _ truth: [[Double]]
    ) -> Double {
        let estimates = angles(faces, indices, model: model, focal: focal, level: 0)
        return mean(zip(estimates, indices).map { $0[0] - truth[$1][0] })
    }

    private func angles(_ faces: Faces, _ indices: [Int], model: Model, focal: Double, level: Double) -> [[Double]] {
        indices.map { i in
            let a = FaceDetector.headEulerAngles(
                of: faces.shapes[i], imageSize: faces.sizes[i], model: model, focalLengthInImageWidths: focal,
                levelPitchDegrees: level)
            return [a.x, a.y, a.z]
        }
    }

    /// The fitted model as Swift source for MeanFace.swift.
    private func constants(_ fit: Fit) -> [String] {
        ["    static let fitted: [(x: Float, y: Float, z: Float)] = ["]
            + fit.model.map { String(format: "        (%.4f, %.4f, %.4f),  // %d", $0.x, $0.y, $0.z, $0.dlibIndex) }
            + [
                "    ]", "    static let focalLengthInImageWidths = \(fit.focalLengthInImageWidths)",
                "    static let levelPitchDegrees = \(String(format: "%.2f", fit.levelPitchDegrees))",
            ]
    }

    private func load() throws -> Faces {
        let detector = try TrainingOptions.detector()
        let cache = try ShapeCache(file: options.cache)
        let entries = try SmileLabels.read(options.data.appendingPathComponent("smile/genki4k/labels.csv").path)
        var faces = Faces()
        for entry in entries {
            guard let yaw = entry.yaw, let pitch = entry.pitch, let roll = entry.roll,
                let image = try? FaceImage(contentsOfFile: entry.file),
                let shape = try cache.shape(for: entry.file, compute: { try largestFace(in: image, detector: detector)?.shape }),
                shape.isPlausible,
                // A second, independent reading of pitch and yaw: YuNet's five keypoints (another
                // network than the 68-point model), as unitless proxies.
                let keypoints = try detector.detectorOutput(in: image).max(by: { $0.box.width < $1.box.width })?.keypoints
            else {
                faces.missed += 1
                continue
            }
            faces.shapes.append(shape)
            faces.sizes.append((image.width, image.height))
            faces.labels.append([pitch, yaw, roll].map { $0 * 180 / .pi })
            faces.smiling.append(entry.smiling)
            faces.proxies.append(Self.proxies(keypoints))
        }
        try cache.save()
        return faces
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
