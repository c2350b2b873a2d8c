/// A command of a FaceKit tool (facekit, facekit-evaluate, facekit-train), shaped like
/// swift-argument-parser's `ParsableCommand`.
///
/// A command is a value type whose stored properties hold its options, declared once in
/// ``arguments`` with one sentence of help each; defaults are the properties' initial values.
/// The parser fills a fresh `init()` value, then calls ``validate()``, then ``run(_:)``.
///
/// ```swift
/// struct Greet: ParsableCommand {
///     static var configuration: CommandConfiguration { .init(commandName: "greet", abstract: "Say hello.") }
///     static var arguments: [ArgumentDefinition<Greet>] { [.option("name", \.name, valueName: "name", help: "Who to greet.")] }
///     var name = "world"
///     func run(_ context: CommandContext) throws -> ExitStatus { context.stdout.write("hello \(name)\n"); return .success }
/// }
/// ```
public protocol ParsableCommand {
    /// The command's name, help text and subcommands.
    static var configuration: CommandConfiguration { get }
    /// The options, flags and positional arguments, in the order help lists them.
    static var arguments: [ArgumentDefinition<Self>] { get }
    /// A command with every option at its default.
    init()
    /// Rejects values that parsed but cannot be used; a thrown ``CommandError`` is a usage error.
    func validate() throws(CommandError)
    /// Does the work. Thrown errors other than ``CommandError`` are runtime failures (exit 1).
    func run(_ context: CommandContext) throws -> ExitStatus
}

extension ParsableCommand {
    public static var arguments: [ArgumentDefinition<Self>] { [] }
    public func validate() throws(CommandError) {}
}

/// What a command is called and what its help says.
public struct CommandConfiguration {
    /// The word that selects the command, e.g. `analyze`.
    public var commandName: String
    /// One sentence for the OVERVIEW and for the parent's SUBCOMMANDS list.
    public var abstract: String
    /// Paragraphs printed after the OVERVIEW line, if any.
    public var discussion: String
    /// Printed by `--version`; only the root command has one.
    public var version: String?
    /// Commands selected by the first argument; a command with subcommands does not run itself.
    public var subcommands: [any ParsableCommand.Type]

    public init(
        commandName: String, abstract: String, discussion: String = "", version: String? = nil,
        subcommands: [any ParsableCommand.Type] = []
    ) {
        self.commandName = commandName
        self.abstract = abstract
        self.discussion = discussion
        self.version = version
        self.subcommands = subcommands
    }
}

/// The process exit status a command ends with.
public struct ExitStatus: Equatable, Sendable {
    public var rawValue: Int32
    public init(_ rawValue: Int32) { self.rawValue = rawValue }
    /// Everything worked.
    public static let success = ExitStatus(0)
    /// A runtime failure: an input could not be analysed, the output could not be written.
    public static let failure = ExitStatus(1)
    /// The command line was wrong (BSD `EX_USAGE`).
    public static let usageError = ExitStatus(64)
}

/// Where a running command writes, and the words it was run with.
public struct CommandContext {
    public var stdout: any TextOutput
    public var stderr: any TextOutput
    /// The command line without the program name (`["analyze", "--output", "x.csv", "photos/"]`),
    /// for messages that tell how to run it again; empty when a test builds the context.
    public var arguments: [String]
    /// The program as it was run (`.build/release/facekit`, or `facekit` from the PATH), for
    /// messages that give a command to run.
    public var program: String

    public init(stdout: any TextOutput, stderr: any TextOutput, arguments: [String] = [], program: String = "facekit") {
        self.stdout = stdout
        self.stderr = stderr
        self.arguments = arguments
        self.program = program
    }
}

/// A usage error: printed as `Error: <message>` plus a usage line, exit status 64.
public struct CommandError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
