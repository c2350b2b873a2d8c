import FaceKit
import FaceKitArguments

/// The flags that say who faces are, shared by `analyze`, `track` and `annotate` (which takes
/// only the `--known` pair): descriptors in the output, and naming from a folder of known people.
struct PeopleFlags: Sendable {
    var descriptors = false
    var known: String?
    var knownTolerance = KnownPeople.defaultTolerance

    init() {}

    /// The flags' definitions, bound to the group stored at `group` in `Command`; without
    /// `descriptors`, only `--known` and `--known-tolerance`.
    static func arguments<Command>(_ group: WritableKeyPath<Command, PeopleFlags>, descriptors: Bool = true)
        -> [ArgumentDefinition<Command>]
    {
        let descriptorFlag = ArgumentDefinition<Command>.flag(
            "descriptors", group.appending(path: \.descriptors),
            help: "Add each face's 128-number descriptor (dlib's ResNet) to JSON Lines output, for grouping later.")
        return (descriptors ? [descriptorFlag] : []) + [
            .option(
                "known", group.appending(path: \.known), valueName: "dir",
                help: "Name faces after the known people in this folder: DIR/<name>/*.jpg or DIR/<name>.jpg, one face each."),
            .option(
                "known-tolerance", group.appending(path: \.knownTolerance), valueName: "distance",
                help: "Largest descriptor distance at which a face is named after a known person."),
        ]
    }

    /// How a collection journal states `--known` (``JournalSettings/phrases``): the folder and
    /// tolerance, or `no --known`.
    static func journalPhrase(known: String?, tolerance: Double?) -> String {
        known.map { "--known \($0) --known-tolerance \((tolerance ?? 0).defaultValueDescription)" } ?? "no --known"
    }

    /// Whether faces need descriptors: for the output, or to be named.
    var needsDescriptors: Bool { descriptors || known != nil }

    /// Usage errors: a tolerance that is not a positive distance, descriptors in CSV.
    func validate(format: OutputFormat?) throws(CommandError) {
        guard knownTolerance > 0, knownTolerance.isFinite else {
            throw CommandError(
                "The value '\(knownTolerance.defaultValueDescription)' is invalid for '--known-tolerance <distance>': "
                    + "it must be a positive descriptor distance (dlib's same-person threshold is 0.6)")
        }
        if known?.isEmpty == true { throw CommandError("The value '' is invalid for '--known <dir>'") }
        if descriptors, format == .csv {
            throw CommandError(
                "'--descriptors' needs '--format jsonl': the CSV table has no room for 128 numbers per face")
        }
    }

    /// The known people of `--known`, described by `detector` (which must compute descriptors),
    /// each unusable reference image reported on `warnings`; `nil` without `--known`.
    func knownPeople(detector: FaceDetector, warnings: any TextOutput) throws -> KnownPeople? {
        guard let known else { return nil }
        return try KnownPeople(directory: known, tolerance: knownTolerance, detector: detector, warnings: warnings)
    }
}
