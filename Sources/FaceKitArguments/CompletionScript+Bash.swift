extension CompletionScript {
    /// For bash 4 or later, with or without the bash-completion package: one function that finds
    /// the subcommand among the words typed so far and completes the current word from its
    /// options, the value list of the option before it, or file names. `--option=value` is
    /// completed too (bash splits it at the `=`), and after `--` only file names are offered.
    var bashScript: String {
        let function = functionName
        var script = """
            # bash completion for \(commandName), written by `\(commandName) --generate-completion-script bash`.
            # Load it with `source <(\(commandName) --generate-completion-script bash)`, or save it as
            # ~/.local/share/bash-completion/completions/\(commandName).

            # Completes the current word with file names.
            \(function)_files() {
                compopt -o filenames 2>/dev/null
                mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            }

            # Completes the current word with those of the words in $1 that it starts.
            \(function)_words() {
                mapfile -t COMPREPLY < <(compgen -W "$1" -- "$cur")
            }

            \(function)() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="" subcommand="" dashdash=0 i
                COMPREPLY=()
                (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"
                # bash splits --option=value at the '=': complete the value of that option.
                if [[ $cur == "=" ]]; then
                    cur=""
                elif [[ $prev == "=" ]] && (( COMP_CWORD > 1 )); then
                    prev="${COMP_WORDS[COMP_CWORD-2]}"
                fi
                for (( i = 1; i < COMP_CWORD; i++ )); do
                    case "${COMP_WORDS[i]}" in
                        --) [[ -n $subcommand ]] && dashdash=1 ;;
                        \(subcommandWords.joined(separator: "|"))) [[ -z $subcommand ]] && subcommand="${COMP_WORDS[i]}" ;;
                    esac
                done
                case "$subcommand" in
                    "")

            """
        script += bashOptionCases(rootOptions, indent: "            ")
        script += """
                        \(function)_words "\((subcommandWords + rootOptions.flatMap(\.words)).joined(separator: " "))"
                        ;;
                    help)
                        \(function)_words "\(subcommands.map(\.name).joined(separator: " "))"
                        ;;

            """
        for subcommand in subcommands {
            let optionWords = subcommand.options.flatMap(\.words).joined(separator: " ")
            script += "        \(subcommand.name))\n"
            script += "            if (( dashdash )); then \(function)_files; return 0; fi\n"
            script += bashOptionCases(subcommand.options, indent: "            ")
            if subcommand.takesArguments {
                script += """
                                if [[ $cur == -* ]]; then
                                    \(function)_words "\(optionWords)"
                                else
                                    \(function)_files
                                fi

                    """
            } else {
                script += "            \(function)_words \"\(optionWords)\"\n"
            }
            script += "            ;;\n"
        }
        script += """
                esac
                return 0
            }

            complete -F \(function) \(commandName)

            """
        return script
    }

    /// A `case "$prev"` that completes the value of whichever of `options` comes just before:
    /// from its list, as a file name, or not at all.
    private func bashOptionCases(_ options: [Option], indent: String) -> String {
        guard options.contains(where: \.takesValue) else { return "" }
        var text = indent + "case \"$prev\" in\n"
        for option in options {
            guard case .oneOf(let values) = option.value else { continue }
            text +=
                indent + "    " + option.words.joined(separator: "|")
                + ") \(functionName)_words \"\(values.joined(separator: " "))\"; return 0 ;;\n"
        }
        let fileNames = options.filter { $0.value == .fileName }.flatMap(\.words)
        if !fileNames.isEmpty {
            text += indent + "    " + fileNames.joined(separator: "|") + ") \(functionName)_files; return 0 ;;\n"
        }
        let freeText = options.filter { $0.value == .text }.flatMap(\.words)
        if !freeText.isEmpty { text += indent + "    " + freeText.joined(separator: "|") + ") return 0 ;;\n" }
        return text + indent + "esac\n"
    }
}
