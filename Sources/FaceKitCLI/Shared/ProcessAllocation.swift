import FaceKit

extension FaceKitCommand {
    /// What the process's allocator keeps, set by the `facekit` executable before `arguments` run
    /// (tests run commands in-process and keep their own): for `analyze`, which decodes one large
    /// photo after another, each photo's memory kept for the next (``ProcessAllocator``). Not for
    /// `track`, whose threads would then share one arena (a tenth slower on a long clip).
    ///
    /// ```swift
    /// FaceKitCommand.prepareAllocator(for: arguments)   // first in main.swift
    /// ```
    package static func prepareAllocator(for arguments: [String]) {
        if arguments.first == AnalyzeCommand.configuration.commandName { ProcessAllocator.keepFreedMemory() }
    }
}
