/// The `facekit` command: the root that selects a subcommand, and the in-process entry point.
///
/// ```swift
/// let out = StringOutput(), err = StringOutput()
/// FaceKitCommand.main(arguments: ["--version"], stdout: out, stderr: err)   // 0; out.text == "0.1.0\n"
/// ```
public struct FaceKitCommand: ParsableCommand {
    public static let version = "0.1.0"

    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "facekit",
            abstract: "Find faces in images and videos and describe them the way Google ML Kit does.",
            version: version,
            subcommands: [
                AnalyzeCommand.self, TrackCommand.self, AnnotateCommand.self, MergeCommand.self, StatusCommand.self,
            ])
    }

    public init() {}

    /// Not reached: a command with subcommands prints its help when none is given.
    public func run(_ context: CommandContext) throws -> ExitStatus { .success }

    /// Runs the command line `arguments` (without the program name) and returns the exit status:
    /// 0 success, 1 runtime failure, 64 usage error. Both outputs are flushed before it returns.
    @discardableResult
    public static func main(
        arguments: [String],
        stdout: any TextOutput = FileDescriptorOutput.standardOutput(),
        stderr: any TextOutput = FileDescriptorOutput.standardError()
    ) -> Int32 {
        defer {
            stdout.flush()
            stderr.flush()
        }
        let context = CommandContext(stdout: stdout, stderr: stderr)
        let outcome: CommandParser.Outcome
        do {
            outcome = try CommandParser(root: Self.self).parse(arguments)
        } catch {
            stderr.write("Error: \(MessageText.escaped(error.error.message))\n" + error.footer)
            return ExitStatus.usageError.rawValue
        }
        switch outcome {
        case .help(let path):
            stdout.write(HelpFormatter.help(for: path))
            return ExitStatus.success.rawValue
        case .version(let version):
            stdout.write(version + "\n")
            return ExitStatus.success.rawValue
        case .completionScript(let shell):
            stdout.write(CompletionScript(root: Self.self).text(for: shell))
            return ExitStatus.success.rawValue
        case .run(let command, let path):
            do {
                let status = try command.run(context).rawValue
                stdout.flush()
                if let output = stdout as? FileDescriptorOutput, output.errorNumber != 0 {
                    stderr.writeDiagnostic("cannot write to standard output: \(systemErrorMessage(output.errorNumber))")
                    return ExitStatus.failure.rawValue
                }
                return status
            } catch let error as CommandError {
                stderr.write(
                    "Error: \(MessageText.escaped(error.message))\n" + HelpFormatter.usageErrorFooter(for: path))
                return ExitStatus.usageError.rawValue
            } catch {
                stderr.writeDiagnostic("\(error)")
                return ExitStatus.failure.rawValue
            }
        }
    }
}
