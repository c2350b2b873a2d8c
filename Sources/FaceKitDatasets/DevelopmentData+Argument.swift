import FaceKitArguments
import Foundation

/// `--data <dir>`, the option of facekit-train's and facekit-evaluate's commands that names the
/// development data folder instead of the default.
///
/// ```swift
/// static var arguments: [ArgumentDefinition<Self>] { [DevelopmentData.argument(\.data), ...] }
/// // help: --data <dir>  The development data folder. (default: /work/shared/data)
/// ```
extension DevelopmentData: ExpressibleByArgument {
    public init?(argument: String) {
        guard !argument.isEmpty else { return nil }
        self.init(folder: URL(fileURLWithPath: argument))
    }

    public var defaultValueDescription: String { folder.path }

    /// The `--data <dir>` option, bound to the data stored at `keyPath`.
    public static func argument<Command>(_ keyPath: WritableKeyPath<Command, DevelopmentData>)
        -> ArgumentDefinition<Command>
    {
        .option(
            "data", keyPath, valueName: "dir",
            help: "The development data folder; without it, $\(environmentVariable), else ../shared/data beside the repository.")
    }

    /// Refuses, as a usage error, a folder that does not hold the development data.
    public func validateArgument() throws(CommandError) {
        if let absenceReason {
            throw CommandError(absenceReason + "; pass --data <dir> or set \(Self.environmentVariable)")
        }
    }
}
