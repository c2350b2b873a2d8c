import Foundation
import Synchronization
import Testing

/// A running `facekit` command on a live source (`track`, `annotate`) whose standard input the
/// test writes, and whose standard output it reads line by line as they come.
final class LiveRun: @unchecked Sendable {
    let process = Process()
    let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let state = Mutex<(lines: [String], partial: String, closed: Bool)>(([], "", false))
    private let errorText = Mutex("")

    /// Starts `facekit <command> --model-dir <models> <arguments>`, with `environment` when given
    /// (else this process's).
    init(_ command: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: try #require(TestSupport.executable))
        if let environment { process.environment = environment }
        process.arguments = [command, "--model-dir", try #require(TestSupport.modelDirectory)] + arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        output.fileHandleForReading.readabilityHandler = { [unowned self] handle in
            let data = handle.availableData
            self.state.withLock { state in
                if data.isEmpty {
                    state.closed = true
                    return
                }
                let text = state.partial + String(decoding: data, as: UTF8.self)
                var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                state.partial = parts.removeLast()
                state.lines += parts
            }
        }
        errors.fileHandleForReading.readabilityHandler = { [unowned self] handle in
            let data = handle.availableData
            self.errorText.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try TestSupport.runWithSignalsUnblocked(process)
    }

    /// Complete lines written so far.
    var lines: [String] { state.withLock { $0.lines } }
    /// What was left after the last newline once the output closed.
    var unterminated: String { state.withLock { $0.partial } }
    var stderr: String { errorText.withLock { $0 } }

    /// A `--max-delay` no frame of a test can exceed: a frame's delay is at most the time since
    /// the run's first frame, and ``wait(until:)`` and ``finish()`` end every run within a
    /// minute. Tests that compare a live run's rows with a file's take it, so that a loaded
    /// machine, which rightly makes a live run skip frames, cannot make them differ.
    static let unreachableDelay = "3600"

    /// The closing line's counts (`-: 125 frames read, 125 analysed, 0 skipped (over
    /// --max-delay), ...`), `nil` before it is written.
    var tally: (read: Int, analysed: Int, skipped: Int)? {
        guard let line = stderr.split(separator: "\n").last(where: { $0.contains(" skipped (over --max-delay)") }),
            let match = line.firstMatch(of: /(\d+) frames? read, (\d+) analysed, (\d+) skipped/),
            let read = Int(match.1), let analysed = Int(match.2), let skipped = Int(match.3)
        else { return nil }
        return (read, analysed, skipped)
    }

    /// Waits (at most a minute, far beyond any run) until `condition` holds or the run ended.
    func wait(until condition: () -> Bool) {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition(), process.isRunning, ContinuousClock.now < deadline { usleep(20_000) }
    }

    /// Waits for the end (killing a run still going after a minute) and for its output.
    func finish() -> Int32 {
        wait { false }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let deadline = ContinuousClock.now + .seconds(10)
        while !state.withLock({ $0.closed }), ContinuousClock.now < deadline { usleep(10_000) }
        usleep(50_000)  // the last of standard error
        return process.terminationStatus
    }
}
