/// A script that teaches a shell to complete the root command's command lines, written from the
/// definitions the parser reads, so that it offers exactly what the parser accepts.
///
/// It completes the subcommands, each subcommand's options, the values of options that take one
/// of a list (`--mode`: `fast`, `accurate`), file names for positional arguments and for values
/// that help calls `<file>`, `<folder>` or `<dir>`, and nothing for other values (numbers).
/// Hidden options are left out. One level of subcommands, as `facekit` has.
///
/// ```swift
/// CompletionScript(root: FaceKitCommand.self).text(for: .bash)
/// // "# bash completion for facekit, written by `facekit --generate-completion-script bash`.\n..."
/// ```
struct CompletionScript {
    /// An option as the shells see it.
    struct Option {
        /// What may follow an option that takes a value.
        enum Value: Equatable {
            case oneOf([String])
            case fileName
            /// A number or other free text: nothing to offer.
            case text
        }

        /// The long name without dashes.
        var name: String
        var shortName: Character?
        var help: String
        /// `nil` for a flag.
        var value: Value?

        var takesValue: Bool { value != nil }
    }

    /// The value names, as help shows them (`--output <file>`), of values that are paths.
    static let pathValueNames: Set = ["file", "folder", "dir"]

    struct Subcommand {
        var name: String
        var abstract: String
        /// Its options, built-in ones (`--help`) last.
        var options: [Option]
        /// Whether it takes positional arguments, completed as file names.
        var takesArguments: Bool
    }

    /// The root command's name, `facekit`.
    let commandName: String
    /// The root's built-in options.
    let rootOptions: [Option]
    let subcommands: [Subcommand]

    init(root: any ParsableCommand.Type) {
        commandName = root.configuration.commandName
        rootOptions = BuiltInOption.options(for: [root]).map(Option.init)
        subcommands = root.configuration.subcommands.map { command in
            precondition(
                command.configuration.subcommands.isEmpty, "CompletionScript: nested subcommands are not supported")
            return Subcommand(
                name: command.configuration.commandName, abstract: command.configuration.abstract,
                options: command.completionOptions + BuiltInOption.options(for: [root, command]).map(Option.init),
                takesArguments: command.takesPositionalArguments)
        }
    }

    func text(for shell: CompletionShell) -> String {
        switch shell {
        case .bash: bashScript
        case .zsh: zshScript
        case .fish: fishScript
        }
    }

    /// The words that select a subcommand, `help` last.
    var subcommandWords: [String] { subcommands.map(\.name) + ["help"] }

    /// `_facekit`: the prefix of the shell functions the scripts define.
    var functionName: String { "_" + commandName.map { $0.isLetter || $0.isNumber ? $0 : "_" } }
}

extension CompletionScript.Option {
    init(_ option: BuiltInOption) {
        self.init(
            name: option.name, shortName: option.shortName, help: option.help,
            value: option.valueName.map { Value(valueName: $0, allowedValues: option.allowedValues) })
    }

    /// `--mode`, or `-h --help`.
    var words: [String] { (shortName.map { ["-\($0)"] } ?? []) + ["--\(name)"] }
}

extension CompletionScript.Option.Value {
    init(valueName: String, allowedValues: [String]) {
        if !allowedValues.isEmpty {
            self = .oneOf(allowedValues)
        } else {
            self = CompletionScript.pathValueNames.contains(valueName) ? .fileName : .text
        }
    }
}

extension ParsableCommand {
    /// The options a completion script offers: the visible ones, in definition order.
    static var completionOptions: [CompletionScript.Option] {
        arguments.compactMap { definition in
            switch definition.kind {
            case .positional: return nil
            case _ where definition.isHidden: return nil
            case .flag:
                return CompletionScript.Option(name: definition.name, help: definition.help)
            case .option(let valueName):
                return CompletionScript.Option(
                    name: definition.name, help: definition.help,
                    value: .init(valueName: valueName, allowedValues: definition.allowedValues))
            }
        }
    }

    static var takesPositionalArguments: Bool { arguments.contains(where: \.isPositional) }
}
