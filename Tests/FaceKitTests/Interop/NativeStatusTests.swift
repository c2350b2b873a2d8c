import Testing
@testable import FaceKit

@Suite("NativeStatus")
struct NativeStatusTests {
    @Test("every Swift status equals its C value", arguments: NativeStatus.allCases)
    func pinnedToC(status: NativeStatus) {
        #expect(status.rawValue == status.cValue)
    }
}
