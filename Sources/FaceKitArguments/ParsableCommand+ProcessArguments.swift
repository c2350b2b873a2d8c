import FaceKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ParsableCommand {
    /// This process's arguments without the program name, read from the raw `argv` bytes so that
    /// a path that is not UTF-8 (a Latin-1 `café.jpg`) still names its file.
    ///
    /// `CommandLine.arguments` decodes `argv` lossily, replacing such bytes with U+FFFD, after
    /// which the file cannot be opened; here each argument keeps its bytes as
    /// ``FilePathEncoding`` says, which leaves UTF-8 arguments unchanged.
    ///
    /// ```swift
    /// exit(FaceKitCommand.main(arguments: FaceKitCommand.processArguments()))
    /// ```
    public static func processArguments() -> [String] {
        Array(processArgumentsWithProgram().dropFirst())
    }

    /// The program as this process was run, for commands that messages give: `argv[0]` when it
    /// names a path (`.build/release/facekit`, `./facekit`), else the root command's name (run
    /// from the PATH, where `argv[0]` is the bare name).
    ///
    /// ```swift
    /// FaceKitCommand.processProgram()   // ".build/release/facekit" when run as that
    /// ```
    public static func processProgram() -> String {
        guard let program = processArgumentsWithProgram().first, program.contains("/") else {
            return configuration.commandName
        }
        return program
    }

    /// `argv`, program name first, each argument's bytes kept as ``processArguments()`` says.
    private static func processArgumentsWithProgram() -> [String] {
        (0..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map { argument in
                FilePathEncoding.string(
                    fromPathBytes: UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
            }
        }
    }
}
