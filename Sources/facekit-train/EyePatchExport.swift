import FaceKit
import FaceKitArguments
import FaceKitDatasets
import Foundation

/// `facekit-train eye-patches`: writes every eye of ``EyeSamples`` (open-faces included) as the
/// eye-state network's training patch, with its label and group, for
/// `scripts/train-eye-model` to train on. Patches are cut by the runtime's own code
/// (``EyePatch``), so the network learns from exactly what it is later given.
///
/// Writes, in the output folder:
/// - `eyes.u8`: the patches, ``EyeSamples/trainingPatchSide`` squared bytes each, one after another;
/// - `eyes.csv`: one row per patch, in the same order: its group (`mahie`, `soniya`, `cew`,
///   `genki`, `open-faces`), source, eye, label, outer-eye-corner distance, and what the
///   runtime's still model gave it (`runtime_probability`, or `runtime_absence`);
/// - `groups.csv`: per group, the faces found and the photos or labelled frames without one.
struct EyePatchExport {
    var options: TrainingOptions

    func validate() throws(CommandError) {
        // The missing option first: it is the user's to fix whether or not the data is there.
        guard options.outputPath != nil else { throw CommandError("eye-patches needs --output <folder>") }
        try options.validate()
    }

    func run() throws {
        let output = options.outputPath!
        let detector = try TrainingOptions.detector(classifying: true)
        let data = try EyeSamples.load(data: options.data, detector: detector, cache: ShapeCache(file: nil), openFaces: true)

        let folder = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(data.samples.flatMap(\.trainingPatch)).write(to: folder.appendingPathComponent("eyes.u8"))
        var rows = ["group,source,eye,open,inter_ocular,runtime_probability,runtime_absence"]
        for sample in data.samples {
            rows.append(
                [
                    sample.person, Self.quoted(sample.source), sample.eye == .left ? "left" : "right", sample.open ? "1" : "0",
                    String(format: "%.2f", sample.interOcular),
                    sample.runtime.map { String(format: "%.6f", $0) } ?? "", sample.runtimeAbsence?.rawValue ?? "",
                ].joined(separator: ","))
        }
        try (rows.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("eyes.csv"), atomically: true, encoding: .utf8)
        let groups = Set(data.faces.keys).union(data.missed.keys).sorted()
        let counts = ["group,faces,without_face"] + groups.map { "\($0),\(data.faces[$0] ?? 0),\(data.missed[$0] ?? 0)" }
        try (counts.joined(separator: "\n") + "\n").write(
            to: folder.appendingPathComponent("groups.csv"), atomically: true, encoding: .utf8)
        FileHandle.standardError.write(Data("facekit-train: wrote \(data.samples.count) eye patches to \(output)\n".utf8))
    }

    /// A CSV field: paths with a comma or quote are quoted.
    private static func quoted(_ field: String) -> String {
        field.contains(where: { $0 == "," || $0 == "\"" }) ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }
}
