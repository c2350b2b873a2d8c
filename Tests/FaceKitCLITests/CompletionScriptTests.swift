import Foundation
import Testing

@testable import FaceKitArguments
@testable import FaceKitCLI

/// `facekit --generate-completion-script`: the bash script is run in bash; the zsh and fish
/// scripts are checked against the definitions, and run when those shells are installed.
@Suite("Completion scripts")
struct CompletionScriptTests {
    static func script(_ shell: String) -> String {
        let run = TestSupport.run(["--generate-completion-script", shell])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        return run.stdout
    }

    /// The visible options of each subcommand, as the parser defines them, with `--help`.
    static let visibleOptions: [(command: String, options: [String])] = FaceKitCommand.configuration.subcommands.map {
        command in
        (command.configuration.commandName, command.completionOptions.map { "--" + $0.name } + ["--help"])
    }

    static func installed(_ shell: String) -> Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/" + shell) }

    /// What the bash script offers for each command line (its last word being completed), one
    /// sorted list per line, run in `folder`.
    static func bashCompletions(_ lines: [[String]], in folder: String) throws -> [[String]] {
        let scriptFile = folder + "/facekit.bash"
        try script("bash").write(toFile: scriptFile, atomically: true, encoding: .utf8)
        var program = "source '\(scriptFile)'\n"
        for words in lines {
            let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
            program += "COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMPREPLY=(); _facekit\n"
            program += "printf '%s\\n' \"$(printf '%s\\n' \"${COMPREPLY[@]}\" | LC_ALL=C sort | paste -sd ' ')\"\n"
        }
        let run = try TestSupport.runProcess("/bin/bash", ["-c", program], in: folder)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        return run.stdoutLines.map { $0.split(separator: " ").map(String.init) }
    }

    @Test("the bash script completes subcommands, options, listed values and file names, and no hidden option")
    func bashCompletes() throws {
        let cases: [([String], [String])] = [
            (["facekit", "ana"], ["analyze"]),
            (["facekit", "an"], ["analyze", "annotate"]),
            (["facekit", "help", "tr"], ["track"]),
            (["facekit", "--generate-completion-script", ""], ["bash", "fish", "zsh"]),
            (["facekit", "analyze", "--land"], ["--landmarks"]),
            (["facekit", "analyze", "--mode", ""], ["accurate", "fast"]),
            (["facekit", "analyze", "--mode", "=", "ac"], ["accurate"]),
            (["facekit", "track", "--con"], []),
            (["facekit", "track", "--every", ""], []),
            (["facekit", "track", "cl"], ["clip.mp4"]),
            (["facekit", "track", "--output", "ph"], ["photos"]),
            (["facekit", "analyze", "--", "--m"], ["--mode.jpg"]),
        ]
        try TestSupport.withTemporaryFolder { folder in
            try TestSupport.makeFile(folder, "clip.mp4")
            try TestSupport.makeFile(folder, "--mode.jpg")
            try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: false)
            let results = try Self.bashCompletions(cases.map(\.0), in: folder)
            #expect(results.count == cases.count)
            for ((words, expected), result) in zip(cases, results) {
                #expect(result == expected, "\(words)")
            }
        }
    }

    @Test("in bash, '--' after each subcommand offers exactly the options the parser defines for it")
    func bashOffersEveryOption() throws {
        try TestSupport.withTemporaryFolder { folder in
            let results = try Self.bashCompletions(
                Self.visibleOptions.map { ["facekit", $0.command, "--"] }, in: folder)
            for ((command, options), result) in zip(Self.visibleOptions, results) {
                #expect(Set(result) == Set(options), "\(command)")
            }
            #expect(!Self.visibleOptions.first { $0.command == "track" }!.options.contains("--contours"))
            #expect(Self.visibleOptions.first { $0.command == "analyze" }!.options.contains("--contours"))
        }
    }

    @Test("the zsh script names every subcommand and, in its function, every visible option of it")
    func zshNamesEverything() throws {
        let text = Self.script("zsh")
        #expect(text.hasPrefix("#compdef facekit\n"))
        for (command, options) in Self.visibleOptions {
            #expect(text.contains("'\(command):"), "\(command) missing from the subcommand list")
            let start = try #require(text.range(of: "\n_facekit_\(command)() {\n"), "\(command)")
            let rest = text[start.upperBound...]
            let body = rest[..<(rest.range(of: "\n}\n")?.lowerBound ?? rest.endIndex)]
            let named = Set(body.matches(of: /'(--[a-z0-9-]+)[=\[]|,(--[a-z0-9-]+)\}/).map { String($0.1 ?? $0.2!) })
            #expect(named == Set(options), "\(command)")
        }
    }

    @Test("the fish script names every subcommand and every visible option of each")
    func fishNamesEverything() {
        let lines = Self.script("fish").split(separator: "\n")
        for (command, options) in Self.visibleOptions {
            #expect(lines.contains { $0.contains("_facekit_needs_subcommand -a \(command) ") }, "\(command)")
            let named = lines.filter { $0.contains("'__facekit_using_subcommand \(command)'") }
                .compactMap { $0.firstMatch(of: /\s-l ([a-z0-9-]+)/).map { "--" + $0.1 } }
            #expect(Set(named) == Set(options), "\(command)")
        }
    }

    @Test("fish, when installed, completes from the script", .enabled(if: installed("fish")))
    func fishCompletes() throws {
        try TestSupport.withTemporaryFolder { folder in
            try Self.script("fish").write(toFile: folder + "/facekit.fish", atomically: true, encoding: .utf8)
            let run = try TestSupport.runProcess(
                "/usr/bin/fish",
                [
                    "-c",
                    "source facekit.fish; complete -C 'facekit ana'; complete -C 'facekit analyze --mode '; complete -C 'facekit track --con'",
                ],
                in: folder)
            #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
            #expect(run.stdoutLines.map { String($0.prefix { $0 != "\t" }) } == ["analyze", "accurate", "fast"])
        }
    }

    @Test("zsh, when installed, reads the script without a syntax error", .enabled(if: installed("zsh")))
    func zshParses() throws {
        try TestSupport.withTemporaryFolder { folder in
            try Self.script("zsh").write(toFile: folder + "/_facekit", atomically: true, encoding: .utf8)
            let run = try TestSupport.runProcess("/usr/bin/zsh", ["-n", folder + "/_facekit"])
            #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        }
    }

    @Test(
        "an unknown or missing shell is a usage error that lists the shells",
        arguments: [
            (
                ["--generate-completion-script", "tcsh"],
                "Error: The value 'tcsh' is invalid for '--generate-completion-script <shell>'. Please provide one of 'bash', 'zsh' or 'fish'."
            ),
            (
                ["--generate-completion-script=ksh"],
                "Error: The value 'ksh' is invalid for '--generate-completion-script <shell>'. Please provide one of 'bash', 'zsh' or 'fish'."
            ),
            (["--generate-completion-script"], "Error: Missing value for '--generate-completion-script <shell>'"),
            (["--generate-completion-script", "bash", "zsh"], "Error: Unexpected argument 'zsh'"),
        ])
    func unknownShell(arguments: [String], message: String) {
        let run = TestSupport.run(arguments)
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines.first == message)
        #expect(run.stderrLines.dropFirst().first == "Usage: facekit <subcommand>")
    }

    @Test("--generate-completion-script=<shell> works too, and the root's help lists the option")
    func inlineValueAndHelp() {
        #expect(TestSupport.run(["--generate-completion-script=zsh"]).stdout == Self.script("zsh"))
        #expect(TestSupport.run(["--help"]).stdout.contains("\n  --generate-completion-script <shell>\n"))
    }
}
