import FaceKit
import Foundation
import Testing
import FaceKitTestSupport

@testable import FaceKitCLI

/// The report's pages on real development data (the Hamilton clip with its cast as `--known`, the
/// identities photos), measured in headless Chromium at a phone's width and a desktop's: a People
/// page from every kind of input, lanes that fit, each track's plot over its own span in the
/// video's time, names on the Photos page.
@Suite(
    "facekit report on development data, in headless Chromium",
    .enabled(if: HeadlessBrowser.found != nil, HeadlessBrowser.missingMessage), .needsModels, .needsSharedData)
struct ReportDevelopmentDataTests {
    static let widths = [390, 1280]
    static var clip: String { TestData.shared("video/short_hamilton_clip.mp4") }
    static var cast: String { TestData.shared("video/hamilton-cast") }
    static var identities: String { TestData.shared("photos/identities") }
    static var models: String { TestSupport.modelDirectory ?? "/nonexistent" }

    /// What the video page and the Photos page measure in the browser.
    struct Measure: Decodable {
        struct Lane: Decodable {
            var right: Double
            var barWidth: Double
            var labelFont: Double
            var labelClipped: Bool
        }
        struct Axis: Decodable {
            var ticks: Int
            var overlap: Bool
            var outside: Bool
            var font: Double
        }
        struct Tick: Decodable {
            var ms: Double
            var text: String
        }
        struct Plot: Decodable {
            var start: Double
            var end: Double
            var ticks: [Tick]
            var seriesStarts: [Double]
            var panelWidths: [Double]
        }
        struct Names: Decodable {
            var text: String
            var right: Double
            var font: Double
        }
        var viewport: Double
        var scrollWidth: Double
        var lanes: [Lane]
        var axes: [Axis]
        var plots: [Plot]
        var names: [Names]
        var peopleCards: Int
        var peopleNotes: [String]
    }

    static let script = """
        (function () {
          function box(e) { return e.getBoundingClientRect(); }
          function font(e) { return parseFloat(getComputedStyle(e).fontSize); }
          var lanes = Array.from(document.querySelectorAll(".lane")).map(function (lane) {
            var label = lane.querySelector(".lane-label"), bar = lane.querySelector(".lane-bar");
            return { right: box(lane).right, barWidth: box(bar).width, labelFont: font(label),
              labelClipped: label.scrollWidth > label.clientWidth + 1 }; });
          var axes = Array.from(document.querySelectorAll(".time-axis")).map(function (axis) {
            var outer = box(axis), ticks = Array.from(axis.querySelectorAll(".tick"));
            var overlap = false, outside = false, smallest = 99;
            ticks.forEach(function (tick, i) {
              var b = box(tick);
              smallest = Math.min(smallest, font(tick));
              if (b.left < outer.left - 0.5 || b.right > outer.right + 0.5) outside = true;
              if (i > 0 && b.left < box(ticks[i - 1]).right) overlap = true; });
            return { ticks: ticks.length, overlap: overlap, outside: outside, font: smallest }; });
          var plots = Array.from(document.querySelectorAll(".track-plot")).map(function (plot) {
            return { start: Number(plot.getAttribute("data-start-ms")), end: Number(plot.getAttribute("data-end-ms")),
              ticks: Array.from(plot.querySelectorAll(".tick")).map(function (t) {
                return { ms: Number(t.getAttribute("data-ms")), text: t.textContent }; }),
              seriesStarts: Array.from(plot.querySelectorAll("path.series")).map(function (p) { return p.getBBox().x; }),
              panelWidths: Array.from(plot.querySelectorAll("svg.panel")).map(function (s) { return box(s).width; }) }; });
          var names = Array.from(document.querySelectorAll(".names")).map(function (n) {
            return { text: n.textContent, right: box(n).right, font: font(n) }; });
          return { viewport: innerWidth, scrollWidth: document.documentElement.scrollWidth, lanes: lanes, axes: axes,
            plots: plots, names: names, peopleCards: document.querySelectorAll(".person").length,
            peopleNotes: Array.from(document.querySelectorAll(".people-note")).map(function (p) { return p.textContent; }) };
        })()
        """

    static func measure(_ page: String, width: Int) throws -> Measure {
        let browser = try #require(HeadlessBrowser.found)
        let json = try browser.measure(page, width: width, script: script)
        let measure = try JSONDecoder().decode(Measure.self, from: Data(json.utf8))
        #expect(measure.viewport == Double(width))
        #expect(measure.scrollWidth <= measure.viewport, "\(page) at \(width) px: \(measure.scrollWidth) px wide")
        return measure
    }

    /// A People page that loads cleanly and shows something at both widths; its measure at each.
    static func peoplePage(_ report: String) throws -> [Measure] {
        let browser = try #require(HeadlessBrowser.found)
        let page = report + "/people.html"
        try #require(FileManager.default.fileExists(atPath: page), "no People page in \(report)")
        let shot = (report as NSString).deletingLastPathComponent + "/people.png"
        #expect(try browser.screenshot(page, to: shot, height: 700) == [])
        #expect(try !HeadlessBrowser.isBlank(shot), "\(page) is blank")
        return try widths.map { try measure(page, width: $0) }
    }

    @Test("Every kind of input gets a People page: grouped by descriptors, by --known names, by tracks, or saying why not")
    func peopleFromEveryInput() throws {
        try TestSupport.withTemporaryFolder { folder in
            // analyze's CSV: no descriptors, no names. The page says why it has nobody, and what to give.
            let csv = folder + "/faces.csv"
            #expect(TestSupport.analyze(["--model-dir", Self.models, "--output", csv, Self.identities]).status == 0)
            let (fromCSV, csvReport) = ReportFixture.report([csv], in: folder + "/csv")
            #expect(fromCSV.status == 0, "\(fromCSV.stderr)")
            for measure in try Self.peoplePage(csvReport) {
                #expect(measure.peopleCards == 0)
                let note = measure.peopleNotes.joined(separator: " ")
                #expect(note.contains("are in no person") && note.contains("facekit analyze --descriptors --format jsonl"), "\(note)")
            }

            // analyze's JSON Lines with descriptors: grouped as group groups them. The identities
            // are 5 people; Obama's three portraits are one of them.
            let jsonl = folder + "/faces.jsonl"
            let analyzed = TestSupport.analyze([
                "--model-dir", Self.models, "--descriptors", "--format", "jsonl", "--output", jsonl, Self.identities,
            ])
            #expect(analyzed.status == 0, "\(analyzed.stderr)")
            let (fromJSONL, jsonlReport) = ReportFixture.report([jsonl], in: folder + "/jsonl")
            #expect(fromJSONL.status == 0, "\(fromJSONL.stderr)")
            for measure in try Self.peoplePage(jsonlReport) {
                #expect((5...7).contains(measure.peopleCards), "\(measure.peopleCards) people")
                #expect(measure.peopleNotes.first?.contains("Grouped by this report from the faces' descriptors") == true)
            }
            let photos = try String(contentsOfFile: jsonlReport + "/photos.html", encoding: .utf8)
            let obama = Self.personLinks(in: photos, photosNamed: ["obama.jpg", "obama2.jpg", "obama1.jpg"])
            #expect(obama.count == 3 && Set(obama).count == 1, "Obama's portraits in one person: \(obama)")

            // track's table, names from --known: a person per name, each other track alone.
            let tracks = folder + "/tracks.csv"
            let tracked = TestSupport.run([
                "track", "--model-dir", Self.models, "--classify", "--known", Self.cast, "--output", tracks, Self.clip,
            ])
            #expect(tracked.status == 0, "\(tracked.stderr)")
            let (fromTracks, tracksReport) = ReportFixture.report([tracks], in: folder + "/tracks")
            #expect(fromTracks.status == 0, "\(fromTracks.stderr)")
            let table = try CSVTable(text: try String(contentsOfFile: tracks, encoding: .utf8))
            let ids = try #require(table.column("tracking_id")), person = try #require(table.column("person"))
            // Rows of frames without a face (status no_face) have no tracking ID.
            let faceRows = table.rows.filter { !$0[ids].isEmpty }
            let names = Set(faceRows.map { $0[person] }.filter { !$0.isEmpty })
            let unnamed = Set(faceRows.filter { $0[person].isEmpty }.map { $0[ids] })
                .subtracting(faceRows.filter { !$0[person].isEmpty }.map { $0[ids] })
            try #require(!names.isEmpty, "the clip's cast is recognised")
            for measure in try Self.peoplePage(tracksReport) {
                #expect(measure.peopleCards == names.count + unnamed.count)
                #expect(measure.peopleNotes.contains { $0.contains("grouped by their --known name") })
                #expect(measure.peopleNotes.contains { $0.contains("no descriptor, so each is a person of its own") })
            }
            let grid = try String(contentsOfFile: tracksReport + "/people.html", encoding: .utf8)
            for name in names { #expect(grid.contains("<b>\(HTMLText.escaped(name))</b>"), "\(name)") }
            try Self.checkTrackPlots(tracksReport, table: table)

            // track's JSON Lines with descriptors: tracks grouped by them. Four tracks share the
            // clip's last two seconds (the audience), so they are four people at least.
            let described = folder + "/tracks.jsonl"
            let trackedJSONL = TestSupport.run([
                "track", "--model-dir", Self.models, "--descriptors", "--format", "jsonl", "--output", described, Self.clip,
            ])
            #expect(trackedJSONL.status == 0, "\(trackedJSONL.stderr)")
            let (fromDescribed, describedReport) = ReportFixture.report([described], in: folder + "/described")
            #expect(fromDescribed.status == 0, "\(fromDescribed.stderr)")
            for measure in try Self.peoplePage(describedReport) {
                #expect((4...Self.ordered(table).count).contains(measure.peopleCards), "\(measure.peopleCards) people")
                let note = measure.peopleNotes.first ?? ""
                #expect(note.contains("0 faces of photos and \(Self.ordered(table).count) video tracks"), "\(note)")
            }
        }
    }

    /// The tracking IDs of a track table, in order.
    static func ordered(_ table: CSVTable) -> [Int] {
        guard let ids = table.column("tracking_id") else { return [] }
        return Set(table.rows.compactMap { Int($0[ids]) }).sorted()
    }

    /// Each track's plot spans the track's own first to last time in the table, its ticks are
    /// the video's times inside that span, and its lines start at the plot's left edge.
    static func checkTrackPlots(_ report: String, table: CSVTable) throws {
        for width in widths {
            let list = try Self.measure(report + "/videos.html", width: width)
            #expect(list.lanes.count == ordered(table).count && list.lanes.allSatisfy { $0.right <= list.viewport + 0.5 })
        }
        let ids = try #require(table.column("tracking_id")), time = try #require(table.column("timestamp_ms"))
        var spans: [Int: (first: Double, last: Double)] = [:]
        for row in table.rows {
            guard let id = Int(row[ids]), let ms = Double(row[time]) else { continue }
            let span = spans[id] ?? (ms, ms)
            spans[id] = (min(span.first, ms), max(span.last, ms))
        }
        let ordered = spans.keys.sorted().map { spans[$0]! }
        let duration = try #require(ordered.map(\.last).max()) - (ordered.map(\.first).min() ?? 0)
        // The clip's tracks do not all span it: some plots are shorter than the video, and still full width.
        #expect(ordered.contains { $0.last - $0.first < 0.8 * duration }, "a track shorter than the clip")
        for width in widths {
            let measure = try Self.measure(report + "/videos/video-0.html", width: width)
            #expect(measure.lanes.count == ordered.count && measure.plots.count == ordered.count)
            for lane in measure.lanes {
                #expect(lane.right <= measure.viewport + 0.5, "a lane sticks out at \(width) px")
                // The whole width below the label on a phone; beside it on a desktop.
                #expect(lane.barWidth >= (width == 390 ? 300 : 800), "a lane of \(lane.barWidth) px at \(width) px")
                #expect(lane.labelFont >= 12 && !lane.labelClipped, "lane label at \(width) px")
            }
            for axis in measure.axes {
                #expect(axis.ticks >= 2 && !axis.overlap && !axis.outside && axis.font >= 12, "\(axis) at \(width) px")
            }
            for (plot, span) in zip(measure.plots, ordered) {
                #expect(abs(plot.start - span.first) <= 0.1, "plot from \(plot.start), track from \(span.first)")
                #expect(plot.end > span.last && plot.end - span.last <= 100, "plot to \(plot.end), track to \(span.last)")
                #expect(plot.ticks.count >= 2)
                for tick in plot.ticks {
                    #expect(tick.ms >= plot.start - 0.1 && tick.ms <= plot.end + 0.1, "tick \(tick.text) outside the span")
                    #expect(tick.text == HTMLText.time(milliseconds: tick.ms), "tick \(tick.text) is the video's time")
                }
                #expect(plot.seriesStarts.contains { $0 <= 1 }, "lines start at the left edge: \(plot.seriesStarts)")
                #expect(plot.panelWidths.allSatisfy { $0 >= (width == 390 ? 300 : 800) }, "\(plot.panelWidths) at \(width) px")
            }
        }
    }

    @Test("The Hamilton clip and the identities analysed here: people across photos and video, lanes, plots and names at both widths")
    func analysedHere() throws {
        try TestSupport.withTemporaryFolder { folder in
            let (run, report) = ReportFixture.report(
                ["--model-dir", Self.models, "--classify", "--known", Self.cast, Self.clip, Self.identities], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            // People: the photos' people and the clip's, grouped by descriptors; the cast named.
            for measure in try Self.peoplePage(report) {
                #expect(measure.peopleCards >= 6, "\(measure.peopleCards) people")
                #expect(measure.peopleNotes.first?.contains("Grouped by this report from the faces' descriptors") == true)
            }
            let grid = try String(contentsOfFile: report + "/people.html", encoding: .utf8)
            #expect(grid.contains("<b>alex-lacamoire</b>") && grid.contains("<b>lin-manuel-miranda</b>"))
            #expect(grid.contains(" · 1 video"), "a person of the clip")
            // Each track of the clip is in a person, named in the tracks table and linked to their page.
            let list = try String(contentsOfFile: report + "/videos.html", encoding: .utf8)
            let rows = ReportFixture.count("<tr id=\"video-0-row-", in: list)
            #expect(rows >= 2 && ReportFixture.count("</a></td><td><a href=\"people/person-", in: list) == rows)
            // Names on the Photos page: the cast's name under Lacamoire's photos, a person link under Obama's.
            let photos = try String(contentsOfFile: report + "/photos.html", encoding: .utf8)
            for block in photos.components(separatedBy: "<figure class=\"photo\"").dropFirst() where block.contains("lacamoire1.jpg")
                || block.contains("lacamoire/<wbr>img1.jpg")
            {
                #expect(block.contains("<span class=\"names\"><a href=\"people/person-"), "linked")
                #expect(block.contains(">alex-lacamoire</a>"), "named")
            }
            let obama = Self.personLinks(in: photos, photosNamed: ["obama.jpg", "obama2.jpg", "obama1.jpg"])
            #expect(obama.count == 3 && Set(obama).count == 1, "Obama's portraits in one person: \(obama)")
            for width in Self.widths {
                let measure = try Self.measure(report + "/photos.html", width: width)
                #expect(measure.names.count >= 10, "names under the photos")
                for names in measure.names {
                    #expect(names.font >= 12 && names.right <= measure.viewport, "\(names.text) at \(width) px")
                }
                // Lanes and plots fit, labelled in the video's time.
                let video = try Self.measure(report + "/videos/video-0.html", width: width)
                #expect(!video.lanes.isEmpty && video.plots.count == video.lanes.count)
                for lane in video.lanes { #expect(lane.right <= video.viewport + 0.5 && lane.labelFont >= 12 && !lane.labelClipped) }
                for axis in video.axes { #expect(axis.ticks >= 2 && !axis.overlap && !axis.outside && axis.font >= 12) }
                for plot in video.plots {
                    #expect(plot.ticks.allSatisfy { $0.ms >= plot.start - 0.1 && $0.ms <= plot.end + 0.1 })
                    #expect(plot.seriesStarts.contains { $0 <= 1 })
                }
            }
        }
    }

    /// The person page each named photo's first face links to on the Photos page.
    static func personLinks(in photos: String, photosNamed names: [String]) -> [String] {
        photos.components(separatedBy: "<figure class=\"photo\"").dropFirst().compactMap { block -> String? in
            guard let caption = block.range(of: "<figcaption>"), let end = block.range(of: "<br>", range: caption.upperBound..<block.endIndex)
            else { return nil }
            let path = block[caption.upperBound..<end.lowerBound].replacingOccurrences(of: "<wbr>", with: "")
            guard names.contains(where: { path.hasSuffix("/" + $0) }) else { return nil }
            return ReportFixture.attributes(["href"], in: String(block)).first { $0.hasPrefix("people/") }
        }
    }
}
