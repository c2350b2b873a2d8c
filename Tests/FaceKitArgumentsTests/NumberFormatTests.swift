import Testing

@testable import FaceKitArguments

@Suite("NumberFormat")
struct NumberFormatTests {
    @Test(
        "rounds, drops trailing zeros, uses a dot and never writes -0",
        arguments: [
            (12.5, 2, "12.5"), (12.0, 2, "12"), (-0.25, 2, "-0.25"), (12.499, 2, "12.5"), (12.494, 2, "12.49"),
            (0.125, 2, "0.13"), (-0.125, 2, "-0.13"), (-0.001, 2, "0"), (-0.0, 2, "0"), (0.0, 4, "0"),
            (0.87654, 4, "0.8765"), (0.87655, 4, "0.8766"), (1.0, 4, "1"), (0.00004, 4, "0"), (0.00005, 4, "0.0001"),
            (0.05, 4, "0.05"), (1e-7, 2, "0"), (123456.789, 2, "123456.79"), (-90.0, 2, "-90"), (0.1, 9, "0.1"),
            (7.0, 0, "7"), (2.5, 0, "3"), (1e20, 2, "9223372036854775807"),
        ] as [(Double, Int, String)])
    func decimal(value: Double, digits: Int, expected: String) {
        #expect(NumberFormat.decimal(value, fractionDigits: digits) == expected)
    }

    @Test("non-finite values have no text", arguments: [Double.nan, .infinity, -.infinity])
    func nonFinite(value: Double) {
        #expect(NumberFormat.decimal(value, fractionDigits: 2) == nil)
    }
}
