/// One option, flag or positional argument of a command, bound to a stored property.
///
/// ```swift
/// .option("min-face-size", \.minFaceSize, valueName: "fraction", help: "Smallest face wanted.")
/// // parses `--min-face-size 0.2` and `--min-face-size=0.2` into `minFaceSize`
/// ```
public struct ArgumentDefinition<Command> {
    public enum Kind: Equatable {
        /// `--name`, no value.
        case flag
        /// `--name <value>` or `--name=<value>`.
        case option(valueName: String)
        /// `<value> ...`: one or more words that are not options.
        case positional(valueName: String)
    }

    /// Thrown by ``assign`` when a word cannot be converted; the parser names the option.
    struct InvalidValue: Error {}

    /// The long name without dashes; for a positional argument, its value name.
    public let name: String
    public let kind: Kind
    /// One sentence.
    public let help: String
    /// The values an enumeration accepts, listed in help and in errors.
    let allowedValues: [String]
    let assign: (inout Command, String) throws(InvalidValue) -> Void
    let defaultDescription: (Command) -> String?
    /// Left out of help and completion scripts; still parsed (see ``hidden()``).
    public private(set) var isHidden = false
    /// An option the command cannot run without (see ``required()``).
    public private(set) var isRequired = false

    var isPositional: Bool {
        if case .positional = kind { true } else { false }
    }

    /// How help and errors show it: `--mode <mode>`, `--landmarks`, `<path> ...`.
    public var synopsis: String {
        switch kind {
        case .flag: "--\(name)"
        case .option(let valueName): "--\(name) <\(valueName)>"
        case .positional(let valueName): "<\(valueName)> ..."
        }
    }

    /// The same argument, parsed as before but not shown in help or completions: for an option a
    /// command accepts only to refuse it with a clearer message than "Unknown option".
    ///
    /// ```swift
    /// .flag("contours", \.contours, help: "...").hidden()   // `track --contours`: "cannot be combined with tracking"
    /// ```
    public func hidden() -> Self {
        var copy = self
        copy.isHidden = true
        return copy
    }

    /// The same option, which the command line must give: the usage line shows it outside
    /// `[<options>]`, and the parser refuses a command line without it.
    ///
    /// ```swift
    /// .option("output", \.output, valueName: "folder", help: "...").required()
    /// // USAGE: facekit annotate [<options>] --output <folder> <input> ...
    /// ```
    public func required() -> Self {
        precondition(!isPositional, "ArgumentDefinition.required(): positional arguments are always required")
        var copy = self
        copy.isRequired = true
        return copy
    }

    /// An option whose property has a default, shown in help.
    public static func option<Value: ExpressibleByArgument>(
        _ name: String, _ keyPath: WritableKeyPath<Command, Value>, valueName: String, help: String
    ) -> Self {
        Self(
            name: name, kind: .option(valueName: valueName), help: help, allowedValues: Value.allValueStrings,
            assign: { (command: inout Command, text: String) throws(InvalidValue) in
                guard let value = Value(argument: text) else { throw InvalidValue() }
                command[keyPath: keyPath] = value
            },
            defaultDescription: { $0[keyPath: keyPath].defaultValueDescription })
    }

    /// An option without a default: the property stays `nil` unless given.
    public static func option<Value: ExpressibleByArgument>(
        _ name: String, _ keyPath: WritableKeyPath<Command, Value?>, valueName: String, help: String
    ) -> Self {
        Self(
            name: name, kind: .option(valueName: valueName), help: help, allowedValues: Value.allValueStrings,
            assign: { (command: inout Command, text: String) throws(InvalidValue) in
                guard let value = Value(argument: text) else { throw InvalidValue() }
                command[keyPath: keyPath] = value
            },
            defaultDescription: { _ in nil })
    }

    /// A flag that sets its property to `true`.
    public static func flag(_ name: String, _ keyPath: WritableKeyPath<Command, Bool>, help: String) -> Self {
        Self(
            name: name, kind: .flag, help: help, allowedValues: [],
            assign: { (command: inout Command, _: String) throws(InvalidValue) in command[keyPath: keyPath] = true },
            defaultDescription: { _ in nil })
    }

    /// The words that are not options, one or more of them.
    public static func positional(_ valueName: String, _ keyPath: WritableKeyPath<Command, [String]>, help: String)
        -> Self
    {
        Self(
            name: valueName, kind: .positional(valueName: valueName), help: help, allowedValues: [],
            assign: { (command: inout Command, text: String) throws(InvalidValue) in
                command[keyPath: keyPath].append(text)
            },
            defaultDescription: { _ in nil })
    }
}

/// A type an option's value can be parsed into, as in swift-argument-parser.
public protocol ExpressibleByArgument {
    /// `nil` when the word is not a valid value.
    init?(argument: String)
    /// Every accepted value, for enumerations; empty otherwise.
    static var allValueStrings: [String] { get }
    /// How help shows the value as a default.
    var defaultValueDescription: String { get }
}

extension ExpressibleByArgument {
    public static var allValueStrings: [String] { [] }
    public var defaultValueDescription: String { "\(self)" }
}

extension ExpressibleByArgument where Self: CaseIterable & RawRepresentable, RawValue == String {
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
    public var defaultValueDescription: String { rawValue }
}

extension String: ExpressibleByArgument {
    public init?(argument: String) { self = argument }
}

extension Int: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

extension Double: ExpressibleByArgument {
    /// Accepts decimal numbers only: no `nan`, `inf` or hexadecimal.
    public init?(argument: String) {
        guard argument.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
            let value = Double(argument), value.isFinite
        else { return nil }
        self = value
    }

    /// `0.1`, `1`, `-2.5`: no `.0`, no exponent for ordinary values.
    public var defaultValueDescription: String { NumberFormat.decimal(self, fractionDigits: 9) ?? "\(self)" }
}
