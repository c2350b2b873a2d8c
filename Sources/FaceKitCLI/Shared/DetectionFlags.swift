import FaceKit
import FaceKitArguments
import Foundation

/// The detector flags `analyze` and `track` share, in the manner of swift-argument-parser's
/// `@OptionGroup`: one definition, one validation, one mapping to ``FaceDetectorOptions``.
///
/// ```swift
/// static var arguments: [ArgumentDefinition<MyCommand>] { DetectionFlags.arguments(\.detection) + [...] }
/// ```
struct DetectionFlags: Sendable {
    var mode: FaceDetectorOptions.PerformanceMode = .fast
    var landmarks = false
    var contours = false
    var classify = false
    var minFaceSize = FaceDetectorOptions.defaultMinFaceSize
    /// `nil` unless given: the library's default then, which is higher with tracking.
    var minDetectionScore: Double?
    /// `nil` unless given, so that `track`, which searches upright faces only, can refuse it.
    var orientation: FaceDetectorOptions.OrientationMode?
    var modelDirectory: String?

    init() {}

    /// What accurate mode costs against fast, as docs/benchmarks.md measured it ("Accurate mode
    /// costs about 3x fast mode"); help says it from here, and a test holds docs/cli.md and
    /// benchmarks.md to the same figure.
    static let accurateModeCost = "about 3x the time"

    /// The flags' definitions, bound to the group stored at `group` in `Command`.
    ///
    /// `contoursHelp` `nil` hides `--contours` from help and completions, for a command that
    /// accepts it only to refuse it with a message that says why (`track`: no contours with tracking);
    /// `orientationHelp` `nil` hides `--orientation` likewise (`track`: video is searched upright).
    static func arguments<Command>(
        _ group: WritableKeyPath<Command, DetectionFlags>, contoursHelp: String?,
        orientationHelp: String? = photoOrientationHelp
    ) -> [ArgumentDefinition<Command>] {
        let contours = ArgumentDefinition<Command>.flag(
            "contours", group.appending(path: \.contours), help: contoursHelp ?? "Not available with this command.")
        let orientation = ArgumentDefinition<Command>.option(
            "orientation", group.appending(path: \.orientation), valueName: "upright|any",
            help: orientationHelp ?? "Not available with this command.")
        return [
            .option(
                "mode", group.appending(path: \.mode), valueName: "mode",
                help: "Trade speed for recall: accurate searches finer and mirrored, finding a few more small and turned faces at "
                    + accurateModeCost + "."),
            .flag(
                "landmarks", group.appending(path: \.landmarks), help: "Compute the 10 landmarks."
            ),
            contoursHelp == nil ? contours.hidden() : contours,
            .flag(
                "classify", group.appending(path: \.classify), help: "Compute the smiling and eye-open probabilities."),
            .option(
                "min-face-size", group.appending(path: \.minFaceSize), valueName: "fraction",
                help: "Smallest face wanted, as head width over image width, in (0, 1]."),
            .option(
                "min-detection-score", group.appending(path: \.minDetectionScore), valueName: "score",
                help: "Report only faces the detector is at least this sure of, in [0, 1] (default \(FaceDetectorOptions.defaultMinDetectionScore) in photos, \(FaceDetectorOptions.defaultVideoMinDetectionScore) in video); lower finds more faces and more false ones."),
            orientationHelp == nil ? orientation.hidden() : orientation,
            .option(
                "model-dir", group.appending(path: \.modelDirectory), valueName: "dir",
                help: "Look for the model files in this folder before the usual places."),
        ]
    }

    /// `--orientation`'s help where photos are analysed.
    static let photoOrientationHelp =
        "Which way up faces are searched for in photos: any (the default) also finds faces lying on their side or upside down, at more cost; upright searches faces standing up only. Video is searched upright."

    /// The detector options these flags ask for (tracking off; `track` turns it on).
    var detectorOptions: FaceDetectorOptions {
        var options = FaceDetectorOptions()
        options.performanceMode = mode
        options.landmarkMode = landmarks ? .all : .none
        options.contourMode = contours ? .all : .none
        options.classificationMode = classify ? .all : .none
        options.minFaceSize = minFaceSize
        if let minDetectionScore { options.minDetectionScore = minDetectionScore }
        if let orientation { options.orientationMode = orientation }
        return options
    }

    var models: ModelLocator { ModelLocator(directory: modelDirectory) }

    /// `--model-dir` names a folder that is there.
    func validateModelDirectory() throws(CommandError) {
        guard let modelDirectory else { return }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: modelDirectory, isDirectory: &isFolder)
        guard !exists || !isFolder.boolValue else { return }
        throw CommandError(
            "The value '\(modelDirectory)' is invalid for '--model-dir <dir>': "
                + (exists ? "it is a file, not a folder" : "no such folder")
                + " (the models are looked for there before the usual places)")
    }

    /// Checks the minimum face size (with the library's own range, so that the message can
    /// repeat the value as typed), then `options` as the library would, restating a library
    /// option error with the flag it came from, then that `--model-dir` is a folder (a mistyped
    /// one would otherwise be passed over for the usual places without a word).
    func validate(_ options: FaceDetectorOptions) throws(CommandError) {
        guard FaceDetectorOptions.isValidMinFaceSize(minFaceSize) else {
            throw CommandError(
                "The value '\(minFaceSize.defaultValueDescription)' is invalid for '--min-face-size <fraction>': it must be greater than 0 and at most 1 (head width over image width)"
            )
        }
        do {
            try options.validate()
        } catch {
            throw Self.usageError(error)
        }
        try validateModelDirectory()
    }

    /// A FaceKit option error restated with the command-line option it came from.
    static func usageError(_ error: FaceKitError) -> CommandError {
        guard case .invalidOption(let name, let reason) = error else { return CommandError(error.description) }
        let flag = FaceDetectorOptions.Option(rawValue: name).flatMap(flag(setting:)) ?? name
        return CommandError("Invalid '\(flag)': \(reason)")
    }

    /// The flag of this group that sets `option`, `nil` for the options no flag here sets.
    static func flag(setting option: FaceDetectorOptions.Option) -> String? {
        switch option {
        case .performanceMode: "--mode"
        case .landmarkMode: "--landmarks"
        case .contourMode: "--contours"
        case .classificationMode: "--classify"
        case .minFaceSize: "--min-face-size"
        case .minDetectionScore: "--min-detection-score"
        case .orientationMode: "--orientation"
        case .descriptorMode, .isTrackingEnabled: nil
        }
    }
}

/// `--mode fast` or `--mode accurate`.
extension FaceDetectorOptions.PerformanceMode: ExpressibleByArgument {}

/// `--orientation upright` or `--orientation any`.
extension FaceDetectorOptions.OrientationMode: ExpressibleByArgument {}
