import FaceKit
import FaceKitArguments
import FaceKitDatasets
import Foundation

/// `facekit-train mouth-patches`: writes the mouth of every GENKI-4K and SMILEsmileD face as the
/// smile network's training patch, with its label and split, for `scripts/train-smile-model`.
/// Faces are found as `facekit-train classifiers` finds them (the largest face, fast mode,
/// minFaceSize 0.2) and patches cut by the runtime's own code (``MouthPatch``), so the network
/// learns from exactly what it is later given.
///
/// Splits, as the geometric smile model's: GENKI-4K files numbered 1 mod 4 and SMILEsmileD even
/// numbers train, GENKI-4K 3 mod 4 and SMILEsmileD odd numbers are held out.
///
/// Writes, in the output folder:
/// - `mouths.u8`: the patches, ``trainingPatchSide`` squared bytes each, one after another;
/// - `mouths.csv`: one row per patch, in the same order: its set (`genki`, `smilesmiled`), source,
///   split (`train`, `test`), label, outer-eye-corner distance, whether the shape is plausible
///   (the runtime judges only those), what the runtime gave it at export (`runtime_probability`),
///   and the geometric model over ``SmileFeatures`` fitted here as `facekit-train classifiers`
///   fits it: on the training part of both sets (`geometric`), of GENKI-4K only
///   (`geometric_genki_only`) and of SMILEsmileD only (`geometric_smilesmiled_only`), the last two
///   for leaving a set out; the three models' logits too (`geometric_logit` and so on), exact where
///   a probability near 0 or 1 rounds; and, for the training part, each face's cross-validation
///   fold (`fold`, dealt as scripts/smile_model.py deals them, which checks it) with the logit of
///   the geometric model fitted on the other four folds (`geometric_logit_out_of_fold`), so that
///   the network and the geometric model can be blended on scores neither saw its face for;
/// - `sets.csv`: per set, the labelled files and those without a face.
struct MouthPatchExport {
    var options: TrainingOptions

    /// The side of an exported patch: the network's input (``SmileModel/side``) with a margin to
    /// shift and scale, at the same scale.
    static let trainingPatchSide = 48
    static let trainingPatchWidth = SmileModel.widthInEyeDistances * Double(trainingPatchSide) / Double(SmileModel.side)

    struct Mouth {
        var set: String
        var source: String
        var train: Bool
        var smiling: Bool
        var interOcular: Double
        var plausible: Bool
        var features: [Double]
        var patch: [UInt8]
        var runtime: Double?
    }

    func validate() throws(CommandError) {
        // The missing option first: it is the user's to fix whether or not the data is there.
        guard options.outputPath != nil else { throw CommandError("mouth-patches needs --output <folder>") }
        try options.validate()
    }

    func run() throws {
        let output = options.outputPath!
        let detector = try TrainingOptions.detector(classifying: true)
        var mouths: [Mouth] = []
        var counts = ["set,files,without_face"]
        for (set, file, trains) in [
            ("genki", "smile/genki4k/labels.csv", { (n: Int) in n % 4 == 1 }),
            ("smilesmiled", "smile/smilesmiled/labels.csv", { (n: Int) in n % 2 == 0 }),
        ] {
            let entries = try SmileLabels.read(options.data.appendingPathComponent(file).path)
            var missed = 0
            for (i, entry) in entries.enumerated() {
                if i % 1000 == 0 { FileHandle.standardError.write(Data("mouths: \(set) \(i)/\(entries.count)\n".utf8)) }
                guard let number = SmileLabels.number(of: entry.file), let image = try? FaceImage(contentsOfFile: entry.file),
                    let (face, shape) = try largestFace(in: image, detector: detector),
                    let features = SmileFeatures.features(of: shape),
                    let patch = try MouthPatch.cut(
                        shape: shape, in: image, side: Self.trainingPatchSide, widthInEyeDistances: Self.trainingPatchWidth)
                else {
                    missed += 1
                    continue
                }
                mouths.append(Mouth(
                    set: set, source: entry.file, train: trains(number), smiling: entry.smiling,
                    interOcular: shape.interOcularDistance, plausible: shape.isPlausible, features: features, patch: patch,
                    runtime: face.smilingProbability))
            }
            counts.append("\(set),\(entries.count),\(missed)")
        }
        let geometric = Self.fit(mouths.filter(\.train))
        let genkiOnly = Self.fit(mouths.filter { $0.train && $0.set == "genki" })
        let smiledOnly = Self.fit(mouths.filter { $0.train && $0.set == "smilesmiled" })
        let folds = Self.folds(mouths)
        var outOfFold = [Double?](repeating: nil, count: mouths.count)
        for fold in 0..<Self.foldCount {
            let model = Self.fit(mouths.indices.filter { folds[$0] != nil && folds[$0] != fold }.map { mouths[$0] })
            for i in mouths.indices where folds[i] == fold { outOfFold[i] = model.logit(mouths[i].features) }
        }

        let folder = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(mouths.flatMap(\.patch)).write(to: folder.appendingPathComponent("mouths.u8"))
        var rows = [
            "set,source,split,smiling,inter_ocular,plausible,runtime_probability,geometric,geometric_genki_only,"
                + "geometric_smilesmiled_only,geometric_logit,geometric_genki_only_logit,geometric_smilesmiled_only_logit,"
                + "fold,geometric_logit_out_of_fold"
        ]
        for (i, mouth) in mouths.enumerated() {
            rows.append(
                [
                    mouth.set, Self.quoted(mouth.source), mouth.train ? "train" : "test", mouth.smiling ? "1" : "0",
                    String(format: "%.2f", mouth.interOcular), mouth.plausible ? "1" : "0",
                    mouth.runtime.map { String(format: "%.6f", $0) } ?? "",
                ].joined(separator: ",") + ","
                    + [geometric, genkiOnly, smiledOnly].map { String(format: "%.6f", $0.probability(mouth.features)) }
                    .joined(separator: ",") + ","
                    + [geometric, genkiOnly, smiledOnly].map { String(format: "%.6f", $0.logit(mouth.features)) }
                    .joined(separator: ",") + ","
                    + (folds[i].map(String.init) ?? "") + "," + (outOfFold[i].map { String(format: "%.6f", $0) } ?? ""))
        }
        try (rows.joined(separator: "\n") + "\n").write(
            to: folder.appendingPathComponent("mouths.csv"), atomically: true, encoding: .utf8)
        try (counts.joined(separator: "\n") + "\n").write(
            to: folder.appendingPathComponent("sets.csv"), atomically: true, encoding: .utf8)
        FileHandle.standardError.write(Data("facekit-train: wrote \(mouths.count) mouth patches to \(output)\n".utf8))
    }

    /// The geometric smile model, fitted as `facekit-train classifiers` fits it.
    private static func fit(_ mouths: [Mouth]) -> LogisticModel {
        LogisticModel.fit(samples: mouths.map(\.features), labels: mouths.map(\.smiling))
    }

    /// The number of cross-validation folds of scripts/smile_model.py.
    static let foldCount = 5

    /// Each training face's fold (`nil` for held-out faces), dealt as scripts/smile_model.py deals
    /// them: per set, the training faces sorted by file, in turn.
    private static func folds(_ mouths: [Mouth]) -> [Int?] {
        var folds = [Int?](repeating: nil, count: mouths.count)
        for set in Set(mouths.map(\.set)) {
            let chosen = mouths.indices.filter { mouths[$0].train && mouths[$0].set == set }
            // Sorted by the path's Unicode scalars, as NumPy sorts strings; stable, as its mergesort.
            let order = chosen.enumerated().sorted {
                let (a, b) = (mouths[$0.element].source.unicodeScalars, mouths[$1.element].source.unicodeScalars)
                return a.lexicographicallyPrecedes(b) || (a.elementsEqual(b) && $0.offset < $1.offset)
            }
            for (position, entry) in order.enumerated() { folds[entry.element] = position % foldCount }
        }
        return folds
    }

    /// A CSV field: paths with a comma or quote are quoted.
    private static func quoted(_ field: String) -> String {
        field.contains(where: { $0 == "," || $0 == "\"" }) ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }
}
