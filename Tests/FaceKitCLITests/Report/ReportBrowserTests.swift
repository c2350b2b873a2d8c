import FaceKit
import Foundation
import Testing
import FaceKitTestSupport

@testable import FaceKitCLI

/// The report rendered by a real browser (headless Chromium): pages load without console
/// messages, scripts run, and the screenshots show something.
@Suite(
    "facekit report in headless Chromium",
    .enabled(if: HeadlessBrowser.found != nil, HeadlessBrowser.missingMessage), .needsModels)
struct ReportBrowserTests {
    @Test("The overview, photos, people and video pages load cleanly and are not blank")
    func pagesRender() throws {
        let browser = try #require(HeadlessBrowser.found)
        try TestSupport.withTemporaryFolder { folder in
            let (faces, people) = try ReportFixture.groupTables(in: folder)
            let analyze = folder + "/faces.csv"
            let (tracks, summary) = try ReportFixture.trackTables(in: folder)
            let (run, report) = ReportFixture.report([analyze, tracks, summary, faces, people], in: folder)
            #expect(run.status == 0, "\(run.stderr)")

            let index = try browser.screenshot(report + "/index.html", to: folder + "/index.png")
            #expect(index == [], "console: \(index)")
            #expect(try !HeadlessBrowser.isBlank(folder + "/index.png"))

            let grid = try browser.load(report + "/people.html")
            #expect(grid.consoleMessages == [])
            #expect(ReportFixture.count("class=\"person\"", in: grid.dom) == 2)

            let photos = try browser.load(report + "/photos.html")
            #expect(photos.consoleMessages == [])
            #expect(photos.dom.contains("class=\"sorting ready\""), "the sort script ran")
            #expect(ReportFixture.count("class=\"photo\"", in: photos.dom) == ReportFixture.photos.count)

            let tracksSeen = try CSVTable(text: try String(contentsOfFile: summary, encoding: .utf8)).rows.count
            let video = try browser.load(report + "/videos/video-0.html")
            #expect(video.consoleMessages == [])
            #expect(ReportFixture.count("<div class=\"lane\"", in: video.dom) == tracksSeen, "one lane per track")
            let shot = try browser.screenshot(report + "/videos/video-0.html", to: folder + "/video.png", height: 2400)
            #expect(shot == [])
            #expect(try !HeadlessBrowser.isBlank(folder + "/video.png"))
        }
    }

    @Test("A file named with <script> runs nothing: no console message, only the report's own script")
    func hostileNameInBrowser() throws {
        let browser = try #require(HeadlessBrowser.found)
        try TestSupport.withTemporaryFolder { folder in
            let name = "<script>console.error('injected')</script><img src=x onerror=alert(1)>.png"
            try TestSupport.makeFile(folder, "in/" + name, contents: TestSupport.astronautData())
            let (run, report) = ReportFixture.report(
                ["--model-dir", TestSupport.modelDirectory ?? "/nonexistent", folder + "/in"], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            for page in ["index.html", "photos.html"] {
                let load = try browser.load(report + "/" + page)
                #expect(load.consoleMessages == [], "\(page): \(load.consoleMessages)")
                #expect(!load.dom.contains("console.error('injected')</script>"))
                #expect(!load.dom.contains("<img src=x"))
                #expect(ReportFixture.count("<script", in: load.dom) == (page == "photos.html" ? 1 : 0))
            }
        }
    }

    @Test("The photos sort by faces and by smile, from a #sort= link as from the buttons")
    func sorting() throws {
        let browser = try #require(HeadlessBrowser.found)
        try TestSupport.withTemporaryFolder { folder in
            // In path order: a-grey.png (no face), m.png, z.png (one face each).
            var grey = [UInt8](repeating: 128, count: 64 * 64)
            let blank = try grey.withUnsafeMutableBytes {
                try FaceImage(pixels: UnsafeRawBufferPointer($0), width: 64, height: 64, bytesPerRow: 64, format: .gray8)
            }.encoded(fileExtension: "png")
            try TestSupport.makeFile(folder, "in/a-grey.png", contents: blank)
            try TestSupport.makeFile(folder, "in/m.png", contents: TestSupport.astronautData())
            try TestSupport.makeFile(folder, "in/z.png", contents: TestSupport.astronautData())
            let (run, report) = ReportFixture.report(
                ["--model-dir", TestSupport.modelDirectory ?? "/nonexistent", "--classify", folder + "/in"], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            func order(_ fragment: String?) throws -> [String] {
                let load = try browser.load(report + "/photos.html", fragment: fragment)
                #expect(load.consoleMessages == [])
                return ReportFixture.attributes(["data-order"], in: load.dom)
            }
            #expect(try order(nil) == ["0", "1", "2"])
            #expect(try order("sort=faces") == ["1", "2", "0"])
            #expect(try order("sort=smile") == ["1", "2", "0"])
            #expect(try order("sort=name") == ["0", "1", "2"])
        }
    }
}

/// The report at a phone's width and a desktop's, measured in headless Chromium.
@Suite(
    "facekit report at phone and desktop widths",
    .enabled(if: HeadlessBrowser.found != nil, HeadlessBrowser.missingMessage), .needsModels)
struct ReportWidthTests {
    struct Measure: Decodable {
        var viewport: Double
        var scrollWidth: Double
        var widestImage: Double
        var sheetFrames: [Double]
        var smallestText: Double
        var smallestPlotText: Double
    }

    static let script = """
        (function () {
          var images = Array.from(document.querySelectorAll("img")).map(function (i) { return i.getBoundingClientRect().width; });
          var sheet = Array.from(document.querySelectorAll(".sheet img")).map(function (i) { return i.getBoundingClientRect().width; });
          var sizes = Array.from(document.querySelectorAll("main p, main td, main th, figcaption, nav a, .lane-label, .panel-label, .time-axis .tick, .names")).map(function (e) {
            return parseFloat(getComputedStyle(e).fontSize); });
          var plots = Array.from(document.querySelectorAll("svg")).map(function (svg) {
            var text = svg.querySelector("text");
            if (!text || !svg.viewBox.baseVal.width) return 99;
            return parseFloat(getComputedStyle(text).fontSize) * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; });
          return { viewport: innerWidth, scrollWidth: document.documentElement.scrollWidth,
            smallestPlotText: Math.min.apply(null, plots.concat([99])),
            widestImage: Math.max.apply(null, images.concat([0])), sheetFrames: sheet,
            smallestText: Math.min.apply(null, sizes.concat([99])) };
        })()
        """

    @Test("No page is wider than the screen, no text below 12 px (9 px in plots), sheet tags at least 12 CSS px", arguments: [390, 1280])
    func widths(width: Int) throws {
        let browser = try #require(HeadlessBrowser.found)
        try TestSupport.withTemporaryFolder { folder in
            let (run, report, _) = try ReportFixture.reportOfEveryTable(in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            for page in ["index.html", "photos.html", "people.html", "people/person-0.html", "videos.html", "videos/video-0.html"] {
                let json = try browser.measure(report + "/" + page, width: width, script: Self.script)
                let measure = try JSONDecoder().decode(Measure.self, from: Data(json.utf8))
                #expect(measure.viewport == Double(width))
                #expect(measure.scrollWidth <= measure.viewport, "\(page) at \(width) px: \(measure.scrollWidth) px wide")
                #expect(measure.widestImage <= measure.viewport, "\(page) at \(width) px")
                #expect(measure.smallestText >= 12, "\(page) at \(width) px: text of \(measure.smallestText) px")
                // A plot scrolls sideways rather than shrink its labels below 9 px.
                #expect(measure.smallestPlotText >= 9, "\(page) at \(width) px: plot text of \(measure.smallestPlotText) px")
                for shown in measure.sheetFrames {
                    let font = ReportPictures.sheetLabelHeight * shown / Double(ReportPictures.frameWidth) / 0.7
                    #expect(font >= 12, "\(page) at \(width) px: a sheet frame \(shown) px wide has \(font) px tags")
                }
                if page.hasPrefix("videos/") { #expect(measure.sheetFrames.count == 5) }
            }
        }
    }
}
