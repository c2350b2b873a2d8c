import FaceKitTestSupport
import Foundation
import Synchronization
import Testing

@testable import FaceKitArguments
@testable import FaceKitCLI

/// Paths, temporary folders and in-process runs shared by the CLI tests.
enum TestSupport {
    /// Tests/Fixtures/astronaut.png, the only redistributable test image (one face).
    static let astronaut = TestData.fixture("astronaut.png")

    /// The folder holding dlib's model files, when scripts/setup has installed them.
    static let modelDirectory: String? = TestData.hasModels ? TestData.models : nil

    static var modelsAvailable: Bool { TestData.hasModels }
    static let modelsMissingMessage: Comment = "model files not found in \(TestData.models): run scripts/setup"

    /// The `facekit` executable built next to the test bundle, if any.
    static let executable: String? = {
        var folders: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: exe).deletingLastPathComponent().path)
        }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path)
        folders.append(Bundle.main.bundleURL.path)
        folders.append(Bundle.main.bundleURL.deletingLastPathComponent().path)
        return folders.map { $0 + "/facekit" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
        var stdoutLines: [String] {
            stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    /// Runs the CLI in process.
    static func run(_ arguments: [String]) -> Run {
        let out = StringOutput()
        let err = StringOutput()
        let status = FaceKitCommand.main(arguments: arguments, stdout: out, stderr: err)
        return Run(status: status, stdout: out.text, stderr: err.text)
    }

    /// Runs `facekit analyze --model-dir <models> <arguments>` in process.
    static func analyze(_ arguments: [String]) -> Run {
        run(["analyze", "--model-dir", modelDirectory ?? "/nonexistent"] + arguments)
    }

    /// Runs the built executable; `killedAfter` as for ``runProcess(_:_:in:environment:killedAfter:)``.
    static func runExecutable(_ arguments: [String], killedAfter seconds: Int? = nil) throws -> Run {
        try runProcess(try #require(executable), arguments, killedAfter: seconds)
    }

    /// Runs `script` with `/bin/sh -c`, `$0` the built executable and `$1`... `arguments`: for
    /// command lines a `Process` cannot pass, such as a path that is not UTF-8 (`printf '\351'`).
    static func runExecutableThroughShell(_ script: String, _ arguments: [String], killedAfter seconds: Int? = nil)
        throws -> Run
    {
        try runProcess("/bin/sh", ["-c", script, try #require(executable)] + arguments, killedAfter: seconds)
    }

    /// Runs the executable at `path`, in `folder` when given, with `environment` when given
    /// (else this process's). With `killedAfter`, a run still going after that many seconds is
    /// killed (SIGKILL, status 9) and says so on its stderr: for runs that a regression would
    /// block forever (opening a named pipe), so that the test fails instead of hanging. Nothing
    /// is timed: the limit is far beyond any run's length.
    static func runProcess(
        _ path: String, _ arguments: [String], in folder: String? = nil, environment: [String: String]? = nil,
        killedAfter seconds: Int? = nil
    ) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let ended = DispatchSemaphore(value: 0)
        let killed = Mutex(false)
        if let seconds {
            let child = process.processIdentifier
            Thread.detachNewThread {
                guard ended.wait(timeout: .now() + .seconds(seconds)) == .timedOut else { return }
                killed.withLock { $0 = true }
                kill(child, SIGKILL)
            }
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        ended.signal()
        let note = killed.withLock { $0 } ? "\n(killed: still running after \(seconds!) s)" : ""
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self) + note)
    }

    /// Starts `process` with SIGINT, SIGTERM and SIGHUP unblocked, as a shell would: a child starts
    /// with its parent thread's blocked signals, and the test's thread blocks nearly all.
    static func runWithSignalsUnblocked(_ process: Process) throws {
        var handled = sigset_t()
        sigemptyset(&handled)
        sigaddset(&handled, SIGINT)
        sigaddset(&handled, SIGTERM)
        sigaddset(&handled, SIGHUP)
        var blocked = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &handled, &blocked)
        defer { pthread_sigmask(SIG_SETMASK, &blocked, nil) }
        try process.run()
    }

    /// Runs /usr/bin/ffmpeg (a dependency of the project) quietly, to make a test video.
    static func ffmpeg(_ arguments: [String]) throws {
        let run = try runProcess("/usr/bin/ffmpeg", ["-v", "error", "-nostdin", "-y"] + arguments)
        try #require(run.status == 0, "ffmpeg \(arguments) failed: \(run.stderr)")
    }

    /// A fresh empty folder, removed after `body`.
    static func withTemporaryFolder<T>(_ body: (String) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facekit-cli-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try body(folder)
    }

    /// Writes `contents` at `folder/relativePath`, creating folders on the way.
    @discardableResult
    static func makeFile(_ folder: String, _ relativePath: String, contents: Data = Data()) throws -> String {
        let path = folder + "/" + relativePath
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        try contents.write(to: URL(fileURLWithPath: path))
        return path
    }

    static func astronautData() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: astronaut)) }

    /// `café.png` in Latin-1: the é is the single byte E9, which is not UTF-8.
    static let latin1Name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".png".utf8)

    /// Writes `contents` to a file in `folder` whose name is the bytes `name`, which need not be
    /// UTF-8 (FileManager cannot make such a file), and returns the file's path as bytes.
    @discardableResult
    static func makeFile(_ folder: String, nameBytes name: [UInt8], contents: Data) throws -> [UInt8] {
        let path = Array(folder.utf8) + [UInt8(ascii: "/")] + name
        let descriptor = (path + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        try #require(descriptor >= 0, "cannot create \(path)")
        defer { close(descriptor) }
        let written = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        try #require(written == contents.count)
        return path
    }
}
