import FaceKit
import FaceKitArguments
import FaceKitDatasets
import Foundation

/// The options facekit-train's commands share: where the data is, and for `classifiers` whether
/// to write the weights and where to remember detected landmarks.
struct TrainingOptions {
    /// The development data (`--data`; default: $FACEKIT_TEST_DATA, else ../shared/data).
    var developmentData = DevelopmentData()
    /// classifiers: print the evaluation without rewriting the weights file.
    var dryRun = false
    /// classifiers, head-pose: remember detected landmarks in this file between runs (see ShapeCache).
    var cachePath: String?
    /// eye-patches: the folder to write the patches to.
    var outputPath: String?
    /// classifiers: the eye-state network's held-out probabilities (default: EyeHeldOut.defaultFile).
    var eyeHeldOutPath: String?

    /// The development data folder.
    var data: URL { developmentData.folder }
    var cache: URL? { cachePath.map { URL(fileURLWithPath: $0) } }
    var eyeHeldOut: URL? { eyeHeldOutPath.map { URL(fileURLWithPath: $0) } }

    /// The options' definitions, bound to the group stored at `group`: `--data` always,
    /// `--dry-run` for a command that writes the weights, `--cache` for one that detects
    /// landmarks on many photos.
    static func arguments<Command>(
        _ group: WritableKeyPath<Command, TrainingOptions>, dryRun: Bool = false, cache: Bool = false,
        output: Bool = false
    ) -> [ArgumentDefinition<Command>] {
        var definitions = [DevelopmentData.argument(group.appending(path: \.developmentData))]
        if dryRun {
            definitions.append(
                .flag(
                    "dry-run", group.appending(path: \.dryRun),
                    help: "Print the evaluation without rewriting ClassifierWeights.swift."))
            definitions.append(
                .option(
                    "eye-held-out", group.appending(path: \.eyeHeldOutPath), valueName: "file",
                    help: "The eye-state network's held-out probabilities (default .eye-model/heldout.csv, "
                        + "from scripts/train-eye-model)."))
        }
        if cache {
            definitions.append(
                .option(
                    "cache", group.appending(path: \.cachePath), valueName: "file",
                    help: "Remember detected landmarks in this file between runs, while experimenting."))
        }
        if output {
            definitions.append(
                .option(
                    "output", group.appending(path: \.outputPath), valueName: "folder",
                    help: "The folder to write into (created if missing)."))
        }
        return definitions
    }

    func validate() throws(CommandError) {
        try developmentData.validateArgument()
    }

    /// The source checkout, found from DevelopmentData so the tool runs from any folder.
    static var repository: URL { DevelopmentData.repository }

    /// The models scripts/setup installs in the repository, so the tool runs from any folder.
    static var models: ModelLocator { DevelopmentData.models }

    /// The detector the training commands find faces with: the faces fill these photos and frames,
    /// so its smallest face is 0.2 of the width (docs/accuracy.md, "Smile and eyes open");
    /// `classifying` also runs the runtime's classifiers, for the exports that record what it gives.
    static func detector(classifying: Bool = false) throws(FaceKitError) -> FaceDetector {
        var options = FaceDetectorOptions()
        options.minFaceSize = 0.2
        if classifying { options.classificationMode = .all }
        return try FaceDetector(options: options, models: models)
    }

    var weightsFile: URL {
        Self.repository.appendingPathComponent("Sources/FaceKit/Classification/ClassifierWeights.swift")
    }
}
