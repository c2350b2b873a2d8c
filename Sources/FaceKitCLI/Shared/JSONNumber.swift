import Foundation

/// A number as `JSONSerialization` reads it, told apart from `true` and `false`.
///
/// On Linux an `NSNumber` holding 0 or 1 also casts to `Bool` (`is Bool` is true for the `0`
/// of `"x":0`), so a cast cannot tell them. JSON's booleans come back as Foundation's boolean
/// number, whose type code is `c` (char); JSON's numbers are `i`, `q` or `d`.
///
/// ```swift
/// JSONNumber.of(object["x"])        // 0 for "x":0
/// JSONNumber.of(object["flag"])     // nil for "flag":true
/// ```
enum JSONNumber {
    static func of(_ value: Any?) -> NSNumber? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        return number
    }

    /// A whole number that fits an `Int` exactly (`1.5`, `true` and `1e300` are not).
    static func integer(_ value: Any?) -> Int? {
        of(value) as? Int
    }
}
