/// Help and usage text in swift-argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS, OPTIONS,
/// SUBCOMMANDS; labels in a 26-column gutter, text wrapped at 80 columns.
enum HelpFormatter {
    static let width = 80
    static let gutter = 26

    /// The full help of the last command in `path` (the root first).
    static func help(for path: [any ParsableCommand.Type]) -> String {
        let command = path.last!
        let configuration = command.configuration
        var text = wrap("OVERVIEW: " + configuration.abstract, indent: 0) + "\n"
        if !configuration.discussion.isEmpty {
            text +=
                "\n"
                + configuration.discussion.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.hasPrefix(" ") ? String($0) : wrap(String($0), indent: 0) }.joined(separator: "\n") + "\n"
        }
        text += "\nUSAGE: " + usage(for: path) + "\n"
        text += command.helpSections(builtIns: BuiltInOption.options(for: path))
        if !configuration.subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n"
            for sub in configuration.subcommands {
                text += row(sub.configuration.commandName, sub.configuration.abstract)
            }
            text += "\n  See '\(commandLine(path)) help <subcommand>' for detailed help.\n"
        }
        return text
    }

    /// `facekit analyze [<options>] <path> ...`
    static func usage(for path: [any ParsableCommand.Type]) -> String {
        let command = path.last!
        if !command.configuration.subcommands.isEmpty { return commandLine(path) + " <subcommand>" }
        return commandLine(path) + command.synopsisTail
    }

    /// The lines printed after `Error: ...`.
    static func usageErrorFooter(for path: [any ParsableCommand.Type]) -> String {
        "Usage: \(usage(for: path))\n  See '\(commandLine(path)) --help' for more information.\n"
    }

    static func commandLine(_ path: [any ParsableCommand.Type]) -> String {
        path.map { $0.configuration.commandName }.joined(separator: " ")
    }
}

extension ParsableCommand {
    /// ` [<options>] --output <folder> <path> ...` after the command's name: the options that
    /// may be left out, then those that may not, then the positional arguments.
    static var synopsisTail: String {
        typealias C = Self
        var tail = ""
        if C.arguments.contains(where: { !$0.isPositional && !$0.isHidden && !$0.isRequired }) {
            tail += " [<options>]"
        }
        for definition in C.arguments where definition.isRequired { tail += " " + definition.synopsis }
        for definition in C.arguments { if case .positional = definition.kind { tail += " " + definition.synopsis } }
        return tail
    }

    /// The ARGUMENTS and OPTIONS sections; the options end with `builtIns`.
    static func helpSections(builtIns: [BuiltInOption]) -> String {
        typealias C = Self
        let row = HelpFormatter.row
        let defaults = C()
        var arguments = ""
        var options = ""
        for definition in C.arguments where !definition.isHidden {
            var help = definition.help
            var notes: [String] = []
            if !definition.allowedValues.isEmpty {
                notes.append("values: " + definition.allowedValues.joined(separator: ", "))
            }
            if let value = definition.defaultDescription(defaults) { notes.append("default: " + value) }
            if !notes.isEmpty { help += " (" + notes.joined(separator: "; ") + ")" }
            if case .positional(let valueName) = definition.kind {
                arguments += row("<\(valueName)>", help)
            } else {
                options += row(definition.synopsis, help)
            }
        }
        for option in builtIns {
            var help = option.help
            if !option.allowedValues.isEmpty {
                help += " (values: " + option.allowedValues.joined(separator: ", ") + ")"
            }
            options += row(option.synopsis, help)
        }
        return (arguments.isEmpty ? "" : "\nARGUMENTS:\n" + arguments) + "\nOPTIONS:\n" + options
    }
}

extension HelpFormatter {
    /// `  label                   text`, the text wrapped into the right-hand column.
    static func row(_ label: String, _ text: String) -> String {
        let start = "  " + label
        let body = wrap(text, indent: gutter).dropFirst(gutter)
        if start.count <= gutter - 2 {
            return start + String(repeating: " ", count: gutter - start.count) + body + "\n"
        }
        return start + "\n" + String(repeating: " ", count: gutter) + body + "\n"
    }

    /// Word-wraps `text` at ``width`` columns, every line indented by `indent` spaces.
    static func wrap(_ text: String, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = pad
        for word in text.split(separator: " ") {
            if line.count > indent && line.count + 1 + word.count > width {
                lines.append(line)
                line = pad
            }
            line += (line.count > indent ? " " : "") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
