import FaceKitArguments

/// The precision of each kind of number in the CSV and JSON Lines outputs.
extension NumberFormat {
    /// Decimals for pixel coordinates and sizes.
    static let coordinateDigits = 2
    /// Decimals for angles in degrees.
    static let angleDigits = 2
    /// Decimals for probabilities.
    static let probabilityDigits = 4
    /// Decimals for timestamps in milliseconds.
    static let timestampDigits = 3
    /// Decimals for descriptor values (about ±0.3): distances keep 4 significant digits.
    static let descriptorDigits = 4

    static func coordinate(_ value: Double) -> String? { decimal(value, fractionDigits: coordinateDigits) }
    static func angle(_ value: Double) -> String? { decimal(value, fractionDigits: angleDigits) }
    static func probability(_ value: Double) -> String? { decimal(value, fractionDigits: probabilityDigits) }
    static func timestamp(_ value: Double) -> String? { decimal(value, fractionDigits: timestampDigits) }
    static func descriptorValue(_ value: Double) -> String? { decimal(value, fractionDigits: descriptorDigits) }
}
