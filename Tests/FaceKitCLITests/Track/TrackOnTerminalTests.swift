import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// The built `facekit track` run with a terminal as its standard error: util-linux's `script`
/// gives it a pseudo-terminal and copies what it draws, codes included.
@Suite(
    "track on a terminal", .needsModels,
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script") && TestSupport.executable != nil))
struct TrackOnTerminalTests {
    /// How the terminal's width is made known.
    enum Width {
        case environment(Int)
        /// `stty cols`, with COLUMNS unset: facekit must ask the terminal (TIOCGWINSZ).
        case terminal(Int)
    }

    struct Screen {
        var status: Int32
        /// Each progress line drawn, without the codes that redraw it.
        var progressLines: [String]
        /// What stays on screen once the run is over.
        var remainingText: String
    }

    static func runOnTerminal(_ arguments: [String], width: Width, in folder: String) throws -> Screen {
        func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        var command =
            "exec "
            + ([try #require(TestSupport.executable), "track", "--model-dir", TestSupport.modelDirectory!]
            + arguments).map(quoted).joined(separator: " ")
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = nil
        environment["SHELL"] = "/bin/sh"
        switch width {
        case .environment(let columns): environment["COLUMNS"] = String(columns)
        case .terminal(let columns): command = "stty cols \(columns); " + command
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["--quiet", "--return", "--command", command, "/dev/null"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // "\r\e[K" starts each redraw and the final erase; the terminal turns "\n" into "\r\n".
        let parts = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\r\u{1B}[K")
        return Screen(
            status: process.terminationStatus, progressLines: Array(parts.dropFirst().dropLast()),
            remainingText: parts.last!)
    }

    static let clip = TrackCommandTests.crossing

    @Test(
        "every progress line fits the terminal's width, from COLUMNS or from the terminal itself",
        arguments: [Width.environment(40), .terminal(50)])
    func progressFits(width: Width) throws {
        let columns: Int
        switch width {
        case .environment(let value), .terminal(let value): columns = value
        }
        try TestSupport.withTemporaryFolder { folder in
            // Detecting on every frame makes the run long enough (seconds) for lines to be drawn.
            let screen = try Self.runOnTerminal(
                ["--detection-interval", "1", "--output", "faces.csv", Self.clip], width: width, in: folder)
            #expect(screen.status == 0)
            #expect(!screen.progressLines.isEmpty, "no progress line was drawn")
            for line in screen.progressLines {
                #expect(!line.contains("\n") && TerminalWidth.columns(of: line) < columns, "\(line)")
                #expect(line.contains("frame ") && line.contains(" of ~125"), "\(line)")
            }
        }
    }

    @Test("the run ends with one line: frames analysed, faces written, tracks, time")
    func closingLine() throws {
        try TestSupport.withTemporaryFolder { folder in
            let screen = try Self.runOnTerminal(
                ["--every", "5", "--start", "1", "--end", "2", "--output", "faces.csv", Self.clip],
                width: .environment(80), in: folder)
            #expect(screen.status == 0)
            let rows =
                try String(contentsOfFile: folder + "/faces.csv", encoding: .utf8)
                .split(separator: "\n").count - 1
            #expect(rows == 10, "two faces in each of five frames")
            let lines = screen.remainingText.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2 && lines.last == "", "one line: \(screen.remainingText)")
            #expect(
                lines.first?.wholeMatch(of: /.*crossing\.mp4: 5 frames analysed, 10 faces, 2 tracks, \d+(\.\d)? s/)
                    != nil, "\(screen.remainingText)")
        }
    }

    @Test("--quiet draws nothing, not even the closing line")
    func quiet() throws {
        try TestSupport.withTemporaryFolder { folder in
            let screen = try Self.runOnTerminal(
                ["--quiet", "--end", "0.2", "--output", "faces.csv", Self.clip], width: .environment(80), in: folder)
            #expect(screen.status == 0)
            #expect(screen.progressLines.isEmpty && screen.remainingText.isEmpty, "\(screen)")
        }
    }
}
