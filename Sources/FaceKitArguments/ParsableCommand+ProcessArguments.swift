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
        (1..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map { argument in
                FilePathEncoding.string(
                    fromPathBytes: UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
            }
        }
    }
}
