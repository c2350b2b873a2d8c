import Testing

@testable import FaceKitArguments
@testable import FaceKitCLI

@Suite("StatusLine")
struct StatusLineTests {
    @Test("cuts each line one column short of the terminal's width, so that it never wraps")
    func cut() {
        let output = StringOutput()
        let line = StatusLine(output: output, enabled: true, terminalColumns: { 10 }, redrawInterval: .zero)
        var offered: Int?
        line.update { columns in
            offered = columns
            return "120 of 2000 files, 340 faces"
        }
        #expect(offered == 9)
        #expect(output.text == "\r\u{1B}[K120 of 20")
        line.erase()
        #expect(output.text.hasSuffix("\r\u{1B}[K120 of 20\r\u{1B}[K"))
    }
}
