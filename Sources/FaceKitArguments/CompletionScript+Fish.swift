extension CompletionScript {
    /// For fish 3: one `complete` line per subcommand and option, each option's one sentence of
    /// help as its description, offered only once its subcommand has been typed.
    var fishScript: String {
        let function = "_" + functionName
        let words = subcommandWords.joined(separator: " ")
        var script = """
            # fish completion for \(commandName), written by `\(commandName) --generate-completion-script fish`.
            # Save it as ~/.config/fish/completions/\(commandName).fish, or load it with
            # `\(commandName) --generate-completion-script fish | source`.

            # Whether no subcommand has been typed yet.
            function \(function)_needs_subcommand
                set -l typed (commandline -opc)
                set -e typed[1]
                for word in $typed
                    contains -- $word \(words); and return 1
                end
                return 0
            end

            # Whether the first subcommand typed is $argv[1].
            function \(function)_using_subcommand
                set -l typed (commandline -opc)
                set -e typed[1]
                for word in $typed
                    if contains -- $word \(words)
                        test "$word" = "$argv[1]"
                        return
                    end
                end
                return 1
            end

            complete -c \(commandName) -f

            """
        let atRoot = "-n \(function)_needs_subcommand"
        for subcommand in subcommands {
            script +=
                "complete -c \(commandName) \(atRoot) -a \(subcommand.name) -d \(Self.fishQuoted(subcommand.abstract))\n"
        }
        script += "complete -c \(commandName) \(atRoot) -a help -d 'Show the help of a subcommand.'\n"
        for option in rootOptions { script += fishLine(option, condition: atRoot) }
        let help = Self.fishQuoted("\(function)_using_subcommand help")
        script +=
            "complete -c \(commandName) -n \(help) -a \(Self.fishQuoted(subcommands.map(\.name).joined(separator: " ")))\n"
        for subcommand in subcommands {
            let condition = "-n " + Self.fishQuoted("\(function)_using_subcommand \(subcommand.name)")
            for option in subcommand.options { script += fishLine(option, condition: condition) }
            if subcommand.takesArguments { script += "complete -c \(commandName) \(condition) -F\n" }
        }
        return script
    }

    /// `complete -c facekit -n '...' -l mode -x -a 'fast accurate' -d '...'`.
    private func fishLine(_ option: Option, condition: String) -> String {
        var line = "complete -c \(commandName) \(condition)"
        if let short = option.shortName { line += " -s \(short)" }
        line += " -l \(option.name)"
        switch option.value {
        case nil: break
        case .oneOf(let values): line += " -x -a " + Self.fishQuoted(values.joined(separator: " "))
        case .fileName: line += " -r -F"
        case .text: line += " -x"
        }
        return line + " -d " + Self.fishQuoted(option.help) + "\n"
    }

    /// `text` in single quotes, with `\` and `'` escaped as fish reads them there.
    static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
