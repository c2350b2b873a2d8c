import FaceKitArguments

/// The `facekit` command: the root that selects a subcommand. `main(arguments:stdout:stderr:)`
/// (from ``ParsableCommand``) is the in-process entry point.
///
/// ```swift
/// let out = StringOutput(), err = StringOutput()
/// FaceKitCommand.main(arguments: ["--version"], stdout: out, stderr: err)   // 0; out.text == "0.1.0\n"
/// ```
public struct FaceKitCommand: ParsableCommand {
    static let version = "0.1.0"

    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "facekit",
            abstract: "Find faces in images and videos and describe them the way Google ML Kit does.",
            version: version,
            subcommands: [
                AnalyzeCommand.self, TrackCommand.self, AnnotateCommand.self, GroupCommand.self, ReportCommand.self,
                MergeCommand.self, StatusCommand.self,
            ])
    }

    public init() {}

    /// Not reached: a command with subcommands prints its help when none is given.
    public func run(_ context: CommandContext) throws -> ExitStatus { .success }
}
