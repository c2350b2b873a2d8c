/// Locale-independent decimal text: for the defaults help shows and the values messages quote,
/// and for facekit's CSV and JSON Lines outputs (whose column precisions FaceKitCLI adds).
///
/// Rounds half away from zero to at most `fractionDigits` decimals, drops trailing zeros, uses a
/// dot, and never writes `-0`:
///
/// ```swift
/// NumberFormat.decimal(12.499, fractionDigits: 2)   // "12.5"
/// NumberFormat.decimal(-0.001, fractionDigits: 2)   // "0"
/// ```
public enum NumberFormat {
    /// The text of `value`; `nil` for NaN and infinities, which neither format can hold.
    public static func decimal(_ value: Double, fractionDigits: Int) -> String? {
        guard value.isFinite else { return nil }
        precondition((0...9).contains(fractionDigits), "NumberFormat.decimal: fractionDigits must be 0...9")
        var scale: Int64 = 1
        for _ in 0..<fractionDigits { scale *= 10 }
        let scaled = (value * Double(scale)).rounded(.toNearestOrAwayFromZero)
        // Beyond 2^53 a Double has no fraction left; print the whole number.
        guard abs(scaled) < 9.0e15 else { return wholeNumber(value.rounded()) }
        let units = Int64(scaled)
        if units == 0 { return "0" }
        let magnitude = units.magnitude
        let whole = magnitude / UInt64(scale)
        var text = (units < 0 ? "-" : "") + String(whole)
        var fraction = magnitude % UInt64(scale)
        if fraction != 0 {
            var digits = fractionDigits
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            let fractionText = String(fraction)
            text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
        }
        return text
    }

    private static func wholeNumber(_ value: Double) -> String {
        if let exact = Int64(exactly: value) { return String(exact) }
        // Larger than Int64: no pixel or angle is; keep the output valid anyway.
        return value < 0 ? "-9223372036854775808" : "9223372036854775807"
    }
}
