import Testing

@testable import FaceKitArguments

/// Help and usage lines as ``HelpFormatter`` writes them for any command, shown on commands
/// made for the test.
@Suite("HelpFormatter")
struct HelpFormatterTests {
    /// A command with one visible and one hidden option.
    struct Secretive: ParsableCommand {
        static var configuration: CommandConfiguration { .init(commandName: "secretive", abstract: "Keep one flag quiet.") }
        static var arguments: [ArgumentDefinition<Secretive>] {
            [.flag("secret", \.secret, help: "Not for help.").hidden()]
        }
        var secret = false
        func run(_ context: CommandContext) throws -> FaceKitArguments.ExitStatus { .success }
    }

    @Test("a hidden option is parsed but left out of help and of the usage line")
    func hiddenOption() throws {
        #expect(try Secretive.parse(["--secret"])?.secret == true)
        let text = HelpFormatter.help(for: [Secretive.self])
        #expect(!text.contains("secret>") && !text.contains("--secret"), "\(text)")
        #expect(text.contains("\nUSAGE: secretive\n"), "no [<options>] when every option is hidden: \(text)")
        #expect(text.contains("\n  -h, --help "))
    }

    struct Demanding: ParsableCommand {
        static var configuration: CommandConfiguration { .init(commandName: "demanding", abstract: "Need a target.") }
        static var arguments: [ArgumentDefinition<Demanding>] {
            [
                .flag("fast", \.fast, help: "Hurry."),
                .option("target", \.target, valueName: "folder", help: "Where to.").required(),
                .positional("input", \.inputs, help: "What."),
            ]
        }
        var fast = false
        var target: String?
        var inputs: [String] = []
        func run(_ context: CommandContext) throws -> FaceKitArguments.ExitStatus { .success }
    }

    @Test("a required option is named in the usage line after [<options>], and a command line without it is refused")
    func requiredOption() throws {
        #expect(Demanding.synopsisTail == " [<options>] --target <folder> <input> ...")
        #expect(try Demanding.parse(["--target", "t", "a"])?.target == "t")
        #expect(try Demanding.parse(["--target=t", "a"])?.target == "t")
        #expect(throws: CommandError("Missing expected option '--target <folder>'")) {
            try Demanding.parse(["--fast", "a"])
        }
        #expect(try Demanding.parse(["--help"]) == nil, "help needs no required option")
    }

    @Test("help rows put the text in a 26-column gutter and wrap long labels onto the next line")
    func rows() {
        #expect(HelpFormatter.row("--x", "Do it.") == "  --x" + String(repeating: " ", count: 21) + "Do it.\n")
        #expect(
            HelpFormatter.row("--a-very-long-option <value>", "Do it.") == "  --a-very-long-option <value>\n"
                + String(repeating: " ", count: 26) + "Do it.\n")
    }
}
