import Testing

@testable import FaceKitArguments
@testable import FaceKitCLI

/// The precisions of the output's columns (``NumberFormat``'s column helpers in FaceKitCLI).
@Suite("NumberFormat columns")
struct NumberFormatColumnsTests {
    @Test("coordinates and angles keep 2 decimals, probabilities 4")
    func precisions() {
        #expect(NumberFormat.coordinate(1.23456) == "1.23")
        #expect(NumberFormat.angle(-12.3456) == "-12.35")
        #expect(NumberFormat.probability(0.123456) == "0.1235")
    }
}
