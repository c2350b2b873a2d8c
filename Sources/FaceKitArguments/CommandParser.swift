/// Turns a command line into the command to run, a help request or a version request.
///
/// Rules, as in swift-argument-parser: the first words select subcommands; `-h`/`--help`
/// anywhere before `--` asks for help; `help [<subcommand>]` too; options take their value as
/// `--name value` or `--name=value`; `--` makes every later word positional; for a repeated
/// option the last value wins.
struct CommandParser {
    enum Outcome {
        /// Print the help of the last command in the path.
        case help([any ParsableCommand.Type])
        case version(String)
        /// Print the completion script for this shell.
        case completionScript(CompletionShell)
        /// Validated and ready to run.
        case run(any ParsableCommand, [any ParsableCommand.Type])
    }

    /// A usage error together with the usage lines of the command it concerns.
    struct Failure: Error {
        var error: CommandError
        var footer: String

        init(error: CommandError, path: [any ParsableCommand.Type]) {
            self.error = error
            footer = HelpFormatter.usageErrorFooter(for: path)
        }
    }

    let root: any ParsableCommand.Type

    func parse(_ arguments: [String]) throws(Failure) -> Outcome {
        var path: [any ParsableCommand.Type] = [root]
        var rest = arguments[...]
        while let current = path.last, !current.configuration.subcommands.isEmpty {
            guard let word = rest.first else { return .help(path) }
            if word == "-h" || word == "--help" { return .help(path) }
            if word == "--version", let version = current.configuration.version { return .version(version) }
            if path.count == 1, let shell = try Self.completionShell(requestedBy: rest, path: path) {
                return .completionScript(shell)
            }
            if word == "help" {
                for name in rest.dropFirst() {
                    guard let next = Self.subcommand(named: name, of: path.last!) else {
                        throw Failure(
                            error: .unknownSubcommand(name, among: Self.subcommandNames(of: path.last!)), path: path)
                    }
                    path.append(next)
                }
                return .help(path)
            }
            guard let next = Self.subcommand(named: word, of: current) else {
                let error: CommandError =
                    word.hasPrefix("-")
                    ? .unknownOption(
                        String(word.prefix { $0 != "=" }), among: BuiltInOption.options(for: path).map(\.name))
                    : .unknownSubcommand(
                        word, among: Self.subcommandNames(of: current), builtIns: BuiltInOption.options(for: path),
                        command: HelpFormatter.commandLine(path), value: rest.dropFirst().first)
                throw Failure(error: error, path: path)
            }
            path.append(next)
            rest = rest.dropFirst()
        }
        do {
            guard let command = try path.last!.parse(Array(rest)) else { return .help(path) }
            try command.validate()
            return .run(command, path)
        } catch {
            throw Failure(error: error, path: path)
        }
    }

    static func subcommand(named name: String, of command: any ParsableCommand.Type) -> (any ParsableCommand.Type)? {
        command.configuration.subcommands.first { $0.configuration.commandName == name }
    }

    /// The words that may follow `command`: its subcommands' names and `help`.
    static func subcommandNames(of command: any ParsableCommand.Type) -> [String] {
        command.configuration.subcommands.map { $0.configuration.commandName } + ["help"]
    }

    /// The shell of `--generate-completion-script <shell>` when `words` is that request, `nil`
    /// when they are something else.
    static func completionShell(requestedBy words: ArraySlice<String>, path: [any ParsableCommand.Type])
        throws(Failure) -> CompletionShell?
    {
        let option = BuiltInOption.completionScript
        guard let word = words.first, word == "--\(option.name)" || word.hasPrefix("--\(option.name)=") else {
            return nil
        }
        let inline = word.firstIndex(of: "=").map { String(word[word.index(after: $0)...]) }
        let extra = words.dropFirst(inline == nil ? 2 : 1)
        guard let value = inline ?? words.dropFirst().first.flatMap({ $0.hasPrefix("--") ? nil : $0 }) else {
            throw Failure(
                error: CommandError("Missing value for '--\(option.name) <\(option.valueName!)>'"), path: path)
        }
        guard let shell = CompletionShell(argument: value) else {
            throw Failure(
                error: .invalidValue(
                    value, for: "--\(option.name) <\(option.valueName!)>", allowed: option.allowedValues),
                path: path)
        }
        if let word = extra.first { throw Failure(error: CommandError("Unexpected argument '\(word)'"), path: path) }
        return shell
    }

}

extension ParsableCommand {
    /// The command with its options filled in, or `nil` when help was asked for.
    static func parse(_ words: [String]) throws(CommandError) -> Self? {
        // Help wins over every other mistake on the line, as in swift-argument-parser.
        if words.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) { return nil }
        var command = Self()
        let definitions = Self.arguments
        var positionals: [String] = []
        var given: Set<String> = []
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || word == "-" || !word.hasPrefix("-") {
                positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            let body = word.drop { $0 == "-" }
            let name = String(body.prefix { $0 != "=" })
            let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
            guard word.hasPrefix("--"),
                let definition = definitions.first(where: { $0.name == name && !$0.isPositional })
            else {
                let offered =
                    definitions.filter { !$0.isPositional && !$0.isHidden }.map(\.name) + [BuiltInOption.help.name]
                throw .unknownOption(String(word.prefix { $0 != "=" }), among: offered)
            }
            given.insert(definition.name)
            switch definition.kind {
            case .flag:
                if inlineValue != nil { throw CommandError("The flag '\(definition.synopsis)' does not take a value") }
                try assign(definition, "", to: &command)
            case .option:
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < words.count, !words[index].hasPrefix("--") {
                    value = words[index]
                    index += 1
                } else {
                    throw CommandError("Missing value for '\(definition.synopsis)'")
                }
                try assign(definition, value, to: &command)
            case .positional:
                break
            }
        }
        if let missing = definitions.first(where: { $0.isRequired && !given.contains($0.name) }) {
            throw CommandError("Missing expected option '\(missing.synopsis)'")
        }
        if let positional = definitions.first(where: \.isPositional) {
            if positionals.isEmpty { throw CommandError("Missing expected argument '\(positional.synopsis)'") }
            for word in positionals { try assign(positional, word, to: &command) }
        } else if let extra = positionals.first {
            throw CommandError("Unexpected argument '\(extra)'")
        }
        return command
    }

    private static func assign<C>(_ definition: ArgumentDefinition<C>, _ value: String, to command: inout C)
        throws(CommandError)
    {
        do {
            try definition.assign(&command, value)
        } catch {
            throw .invalidValue(value, for: definition.synopsis, allowed: definition.allowedValues)
        }
    }
}

extension CommandError {
    /// `The value 'slow' is invalid for '--mode <mode>'. Please provide one of 'fast' or 'accurate'.`
    static func invalidValue(_ value: String, for synopsis: String, allowed: [String]) -> CommandError {
        var message = "The value '\(value)' is invalid for '\(synopsis)'"
        let allowed = allowed.map { "'\($0)'" }
        if allowed.count > 1 {
            message += ". Please provide one of \(allowed.dropLast().joined(separator: ", ")) or \(allowed.last!)."
        }
        return CommandError(message)
    }
}
