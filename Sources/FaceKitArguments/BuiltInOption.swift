/// An option a command has without declaring it, as in swift-argument-parser: `-h, --help` on
/// every command; on the root, `--version` and `--generate-completion-script <shell>`.
///
/// The parser acts on these itself; help, completion scripts and "Did you mean" list them from
/// here, so that all three offer the same options.
struct BuiltInOption {
    /// The long name without dashes.
    var name: String
    /// A one-letter alias: `h` for `-h`.
    var shortName: Character?
    /// `nil` for a flag.
    var valueName: String?
    /// The values it accepts, when they are a fixed list.
    var allowedValues: [String] = []
    var help: String

    static let help = BuiltInOption(name: "help", shortName: "h", help: "Show help information.")
    static let version = BuiltInOption(name: "version", help: "Show the version.")
    static let completionScript = BuiltInOption(
        name: "generate-completion-script", valueName: "shell", allowedValues: CompletionShell.allValueStrings,
        help: "Print a script that completes this command's subcommands and options in this shell.")

    /// How help shows it: `-h, --help`, `--generate-completion-script <shell>`.
    var synopsis: String {
        (shortName.map { "-\($0), " } ?? "") + "--\(name)" + (valueName.map { " <\($0)>" } ?? "")
    }

    /// The built-in options of the last command in `path` (the root first), in the order help
    /// lists them.
    static func options(for path: [any ParsableCommand.Type]) -> [BuiltInOption] {
        let command = path.last!
        var options: [BuiltInOption] = []
        if path.count == 1 && !command.configuration.subcommands.isEmpty { options.append(.completionScript) }
        if command.configuration.version != nil { options.append(.version) }
        return options + [.help]
    }
}
