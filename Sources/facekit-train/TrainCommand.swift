import FaceKitArguments

/// `facekit-train`: fits FaceKit's small learned parts from the development data. One
/// subcommand per part, parsed like `facekit`'s (FaceKitArguments): help, "Did you mean", usage
/// errors with exit status 64, runtime failures 1. Run it from a release build.
///
/// ```
/// swift run -c release facekit-train classifiers --dry-run
/// ```
struct TrainCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "facekit-train",
            abstract: "Fit FaceKit's classifiers and constants on the development data.",
            subcommands: [
                Training.self, EyePatchExport.self, MouthPatchExport.self, LandmarkSeedFit.self, DetectionThreshold.self, HeadPoseStudy.self,
                SmallEyeStudy.self,
            ])
    }

    /// Not reached: a command with subcommands prints its help when none is given.
    func run(_ context: CommandContext) throws -> ExitStatus { .success }
}

extension Training: TrainingStep {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "classifiers",
            abstract: "Refit the smile and eye-open models, rewrite ClassifierWeights.swift and print the held-out evaluation.")
    }

    static var arguments: [ArgumentDefinition<Self>] {
        TrainingOptions.arguments(\.options, dryRun: true, cache: true)
    }
}

extension EyePatchExport: TrainingStep {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "eye-patches",
            abstract: "Write every development eye as the eye-state network's training patch, for scripts/train-eye-model.")
    }

    static var arguments: [ArgumentDefinition<Self>] { TrainingOptions.arguments(\.options, output: true) }
}

extension MouthPatchExport: TrainingStep {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "mouth-patches",
            abstract: "Write every GENKI-4K and SMILEsmileD mouth as the smile network's training patch, for scripts/train-smile-model.")
    }

    static var arguments: [ArgumentDefinition<Self>] { TrainingOptions.arguments(\.options, output: true) }
}

extension LandmarkSeedFit: TrainingStep {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "landmark-seed",
            abstract: "Fit LandmarkSeed (YuNet's faces to the 68-point model's box) and print the constants.")
    }

    static var arguments: [ArgumentDefinition<Self>] { TrainingOptions.arguments(\.options) }
}

extension DetectionThreshold: TrainingStep {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "detection-threshold",
            abstract: "Print YuNet's precision and recall by score, which set the default minDetectionScore.")
    }

    static var arguments: [ArgumentDefinition<Self>] { TrainingOptions.arguments(\.options) }
}

extension HeadPoseStudy: TrainingStep {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "head-pose",
            abstract: "Fit the 3D mean face for head pose on GENKI-4K and measure it against GENKI's labels.")
    }

    static var arguments: [ArgumentDefinition<Self>] { TrainingOptions.arguments(\.options, cache: true) }
}

extension SmallEyeStudy: TrainingStep {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "small-eyes",
            abstract: "Measure the eye-state network on strangers' faces shrunk to 12-32 px between the eyes and fit SmallEyeCorrection.")
    }

    static var arguments: [ArgumentDefinition<Self>] { TrainingOptions.arguments(\.options) }
}

/// What every facekit-train subcommand shares: its options, checked before it runs, and a
/// `run()` that prints its report.
protocol TrainingStep: ParsableCommand {
    var options: TrainingOptions { get }
    init(options: TrainingOptions)
    func run() throws
}

extension TrainingStep {
    init() { self.init(options: TrainingOptions()) }

    func validate() throws(CommandError) { try options.validate() }

    func run(_ context: CommandContext) throws -> ExitStatus {
        try run()
        return .success
    }
}
