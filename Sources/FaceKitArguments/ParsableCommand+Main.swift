extension ParsableCommand {
    /// Runs the command line `arguments` (without the program name) with this command as the
    /// root, the program run as `program` (the root command's name when `nil`), and returns the
    /// exit status: 0 success, 1 runtime failure, 64 usage error. Both
    /// outputs are flushed before it returns.
    ///
    /// Help, `--version` and `--generate-completion-script` are answered on `stdout`; a usage
    /// error is `Error: <message>` and the usage lines on `stderr`; any other error thrown by
    /// ``run(_:)`` is one line, `<root command>: <error>`, on `stderr`. Every message is escaped
    /// as ``MessageText`` says.
    ///
    /// ```swift
    /// let out = StringOutput(), err = StringOutput()
    /// FaceKitCommand.main(arguments: ["--version"], stdout: out, stderr: err)   // 0; out.text == "0.1.0\n"
    /// ```
    @discardableResult
    public static func main(
        arguments: [String],
        program: String? = nil,
        stdout: any TextOutput = FileDescriptorOutput.standardOutput(),
        stderr: any TextOutput = FileDescriptorOutput.standardError()
    ) -> Int32 {
        defer {
            stdout.flush()
            stderr.flush()
        }
        let diagnosticPrefix = configuration.commandName + ": "
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
                let status = try command.run(CommandContext(
                        stdout: stdout, stderr: stderr, arguments: arguments,
                        program: program ?? configuration.commandName)).rawValue
                stdout.flush()
                if let output = stdout as? FileDescriptorOutput, output.errorNumber != 0 {
                    stderr.write(
                        diagnosticPrefix
                            + "cannot write to standard output: \(systemErrorMessage(output.errorNumber))\n")
                    return ExitStatus.failure.rawValue
                }
                return status
            } catch let error as CommandError {
                stderr.write(
                    "Error: \(MessageText.escaped(error.message))\n" + HelpFormatter.usageErrorFooter(for: path))
                return ExitStatus.usageError.rawValue
            } catch {
                stderr.write(diagnosticPrefix + MessageText.escaped("\(error)") + "\n")
                return ExitStatus.failure.rawValue
            }
        }
    }
}
