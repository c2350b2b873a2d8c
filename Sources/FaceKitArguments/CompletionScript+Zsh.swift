extension CompletionScript {
    /// For zsh's completion system (compinit): `_arguments` specs, with each option's one
    /// sentence of help as its description, and `_describe` for the subcommands. Works both
    /// autoloaded from `$fpath` and sourced.
    var zshScript: String {
        let function = functionName
        var script = """
            #compdef \(commandName)
            # zsh completion for \(commandName), written by `\(commandName) --generate-completion-script zsh`.
            # Save it as \(function) in a folder of $fpath before compinit runs, or load it with
            # `source <(\(commandName) --generate-completion-script zsh)` after compinit.

            \(function)() {
                local context state state_descr line ret=1
                typeset -A opt_args
                _arguments -C \\

            """
        for spec in rootOptions.flatMap(zshSpecs) { script += "        \(spec) \\\n" }
        script += """
                    '1: :->subcommand' \\
                    '*:: :->arguments' && ret=0
                case $state in
                    subcommand)
                        local -a subcommands
                        subcommands=(

            """
        for subcommand in subcommands {
            script += "                \(Self.zshQuoted(subcommand.name + ":" + subcommand.abstract))\n"
        }
        script += """
                            'help:Show the help of a subcommand.'
                        )
                        _describe -t subcommands '\(commandName) subcommand' subcommands && ret=0
                        ;;
                    arguments)
                        case $words[1] in

            """
        for subcommand in subcommands {
            script += "                \(subcommand.name)) \(function)_\(subcommand.name) && ret=0 ;;\n"
        }
        script += """
                            help) _values subcommand \(subcommands.map(\.name).joined(separator: " ")) && ret=0 ;;
                        esac
                        ;;
                esac
                return ret
            }

            """
        for subcommand in subcommands {
            script += "\n\(function)_\(subcommand.name)() {\n    _arguments -S \\\n"
            var specs = subcommand.options.flatMap(zshSpecs)
            if subcommand.takesArguments { specs.append("'*:file:_files'") }
            script += specs.map { "        " + $0 }.joined(separator: " \\\n") + "\n}\n"
        }
        script += """

            if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
                \(function) "$@"
            else
                compdef \(function) \(commandName)
            fi

            """
        return script
    }

    /// The `_arguments` specs of `option`: `'--mode=[Trade speed ...]:mode:(fast accurate)'`,
    /// `'(-h --help)'{-h,--help}'[Show help information.]'`.
    private func zshSpecs(_ option: Option) -> [String] {
        let description = "[" + Self.zshBracketEscaped(option.help) + "]"
        let action: String
        switch option.value {
        case nil: action = ""
        case .oneOf(let values): action = ":\(option.name):(" + values.joined(separator: " ") + ")"
        case .fileName: action = ":\(option.name):_files"
        case .text: action = ":\(option.name): "
        }
        if option.words.count > 1 {
            let exclusions = "(" + option.words.joined(separator: " ") + ")"
            return [
                Self.zshQuoted(exclusions) + "{" + option.words.joined(separator: ",") + "}"
                    + Self.zshQuoted((option.takesValue ? "=" : "") + description + action)
            ]
        }
        return [Self.zshQuoted("--" + option.name + (option.takesValue ? "=" : "") + description + action)]
    }

    /// `text` in single quotes, a quote inside written as `'\''`.
    static func zshQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// `text` with the characters `_arguments` reads inside a description's brackets escaped.
    static func zshBracketEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "[", with: "\\[")
            .replacingOccurrences(of: "]", with: "\\]").replacingOccurrences(of: ":", with: "\\:")
    }
}
