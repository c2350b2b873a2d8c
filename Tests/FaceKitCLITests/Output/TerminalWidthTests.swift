import Foundation
import Testing

@testable import FaceKitCLI

@Suite("TerminalWidth")
struct TerminalWidthTests {
    @Test(
        "COLUMNS wins when it is a positive number; otherwise the terminal, and 80 when there is none",
        arguments: [
            (["COLUMNS": "42"], 42), (["COLUMNS": "0"], 80), (["COLUMNS": "wide"], 80), ([:], 80),
        ] as [([String: String], Int)])
    func columns(environment: [String: String], expected: Int) throws {
        let pipe = Pipe()  // not a terminal: TIOCGWINSZ fails
        #expect(
            TerminalWidth.columns(descriptor: pipe.fileHandleForWriting.fileDescriptor, environment: environment)
                == expected)
    }

    @Test("counts a character outside ASCII as two columns, so that a fitted line never wraps")
    func width() {
        #expect(TerminalWidth.columns(of: "clip.mp4") == 8)
        #expect(TerminalWidth.columns(of: "café.mp4") == 9)
        #expect(TerminalWidth.columns(of: "動画.mp4") == 8)
        #expect(TerminalWidth.prefix("動画.mp4", fitting: 3) == "動")
    }

    @Test("shortens from the front with ... and leaves what fits unchanged")
    func suffix() {
        #expect(TerminalWidth.suffix("/videos/clip.mp4", fitting: 12) == ".../clip.mp4")
        #expect(TerminalWidth.suffix("/videos/clip.mp4", fitting: 11) == "...clip.mp4")
        #expect(TerminalWidth.suffix("clip.mp4", fitting: 8) == "clip.mp4")
        #expect(TerminalWidth.prefix("clip.mp4: frame 1", fitting: 8) == "clip.mp4")
    }
}
