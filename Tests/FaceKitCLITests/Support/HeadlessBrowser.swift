import FaceKit
import Foundation
import Testing

/// Debian's `chromium` run headless, as the report tests use it: a screenshot of a page, the DOM
/// after its scripts ran, and the console messages it logged. scripts/setup installs it.
struct HeadlessBrowser {
    let executable: String

    /// The browser on `PATH` (`chromium`, `chromium-browser`, `google-chrome`), `nil` when none.
    static let found: HeadlessBrowser? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in path.split(separator: ":") {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return HeadlessBrowser(executable: candidate) }
            }
        }
        return nil
    }()

    static let missingMessage: Comment =
        "skipped: no headless browser (chromium) on PATH; run scripts/setup, which installs Debian's chromium"

    /// What one page load gave.
    struct Load {
        /// The DOM serialised after the page's scripts ran (`--dump-dom`).
        var dom: String
        /// Messages the page wrote to the console, errors included (`Uncaught ...`).
        var consoleMessages: [String]
    }

    /// Loads `file` (a path), with `#fragment` when given, and returns its DOM and console messages.
    func load(_ file: String, fragment: String? = nil) throws -> Load {
        let run = try launch(["--dump-dom", Self.url(file) + (fragment.map { "#" + $0 } ?? "")])
        return Load(dom: run.stdout, consoleMessages: Self.console(run.stderr))
    }

    /// Takes a screenshot of `file`, `width` x `height` CSS pixels, into `png`; returns the
    /// console messages of that load.
    @discardableResult
    func screenshot(_ file: String, to png: String, width: Int = 1280, height: Int = 1600) throws -> [String] {
        let run = try launch(["--hide-scrollbars", "--window-size=\(width),\(height)", "--screenshot=\(png)", Self.url(file)])
        try #require(FileManager.default.fileExists(atPath: png), "chromium wrote no screenshot: \(run.stderr.suffix(2000))")
        return Self.console(run.stderr)
    }

    fileprivate func launch(_ arguments: [String]) throws -> TestSupport.Run {
        try TestSupport.withTemporaryFolder { profile in
            try TestSupport.runProcess(
                executable,
                [
                    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile)",
                    "--enable-logging=stderr", "--v=0",
                ] + arguments)
        }
    }

    static func url(_ file: String) -> String { URL(fileURLWithPath: file).absoluteString }

    /// The console lines of chromium's log: `[...:INFO:CONSOLE:1] "message", source: ...`.
    static func console(_ log: String) -> [String] {
        log.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
    }

    /// Whether a screenshot shows something: at least 2% of its pixels differ clearly from the
    /// most common grey level (a blank or single-colour page has none).
    static func isBlank(_ png: String) throws -> Bool {
        let image = try FaceImage(contentsOfFile: png)
        let grey = try image.pixels(format: .gray8)
        var histogram = [Int](repeating: 0, count: 256)
        for value in grey { histogram[Int(value)] += 1 }
        let common = histogram.indices.max { histogram[$0] < histogram[$1] }!
        let different = grey.reduce(0) { $0 + (abs(Int($1) - common) > 24 ? 1 : 0) }
        return Double(different) < 0.02 * Double(grey.count)
    }
}

extension HeadlessBrowser {
    /// What `script` (a JavaScript expression) gives on the report page `file` laid out
    /// `width` CSS px wide, as the JSON text of its value. Headless Chromium lays out no
    /// narrower than 500 px, so the page is loaded in an iframe that wide: a copy of it, next to
    /// it (its relative links still work), posts the value to the frame's parent.
    func measure(_ file: String, width: Int, script: String) throws -> String {
        let copy = (file as NSString).deletingLastPathComponent + "/measured-\(width).html"
        let page = try String(contentsOfFile: file, encoding: .utf8)
        let probe = "<script>addEventListener(\"load\", function () { parent.postMessage(JSON.stringify(\(script)), \"*\"); });</script>"
        try page.replacingOccurrences(of: "</body>", with: probe + "</body>").write(
            toFile: copy, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        return try TestSupport.withTemporaryFolder { folder in
            let frame = folder + "/frame.html"
            let html = """
                <!DOCTYPE html><html><body style="margin:0">
                <iframe style="width:\(width)px;height:900px;border:0" src="\(Self.url(copy))"></iframe>
                <script>addEventListener("message", function (e) { document.body.setAttribute("data-measured", e.data); });</script>
                </body></html>
                """
            try html.write(toFile: frame, atomically: true, encoding: .utf8)
            let run = try launch([
                "--window-size=\(max(500, width + 20)),900", "--virtual-time-budget=5000", "--dump-dom", Self.url(frame),
            ])
            let value = try #require(ReportFixture.attributes(["data-measured"], in: run.stdout).first, "no measure")
            return value.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
        }
    }
}
