import FaceKit
import Foundation
import Testing
import FaceKitTestSupport

@testable import FaceKitCLI

@Suite("facekit report: the site from tables and inputs")
struct ReportCommandTests {
    @Test("CSV cells: quoted commas, doubled quotes, line breaks, CRLF and a byte-order mark")
    func csvCells() throws {
        let table = try CSVTable(text: "\u{FEFF}source,face\r\n\"a, \"\"b\"\"\nc.jpg\",0\r\nplain.jpg,1\n\n")
        #expect(table.header == ["source", "face"])
        #expect(table.rows == [["a, \"b\"\nc.jpg", "0"], ["plain.jpg", "1"]])
        #expect(table.lines == [2, 4])
    }

    /// The message `ReportTable` refuses `text` (read from `t.csv` or `t.jsonl`) with, `nil` when it reads it.
    static func refusal(csv text: String) -> String? {
        do {
            _ = try ReportTable.csv(text: text, path: "t.csv")
            return nil
        } catch {
            return error.description
        }
    }

    @Test("A quote left open and a row with fewer cells than the header are errors naming the file and line")
    func malformedCSV() throws {
        let header = "source,frame,timestamp_ms,face,tracking_id,x,y,width,height\n"
        let row = "a.jpg,,,0,,1,2,30,40\n"
        #expect(Self.refusal(csv: header + row + "\"b.jpg,,,0,,1,2,30,40\n" + row) == "t.csv: line 3: a quoted cell opened here is never closed")
        #expect(Self.refusal(csv: header + row + "\n" + "b.jpg,,,0,,1,2\n") == "t.csv: line 4: 7 cells, but the header has 9")
        #expect(Self.refusal(csv: header + "\"a\nb.jpg\",,,0,,1,2,30,40\nc.jpg,,,0\n") == "t.csv: line 4: 4 cells, but the header has 9")
        #expect(Self.refusal(csv: header + row + ",,,0,,1,2,30,40\n") == "t.csv: line 3: the source cell is empty")
        #expect(Self.refusal(csv: header + row + "b.jpg,,,0,,1,2,thirty,40\n")?.hasPrefix("t.csv: line 3: a face box must be") == true)
        // A people.csv and a track summary are held to the same rows.
        #expect(Self.refusal(csv: "person_id,name,faces,best_source\n1,,2\n") == "t.csv: line 2: 3 cells, but the header has 4")
        #expect(Self.refusal(csv: "source,tracking_id,first_frame\n\"v.mp4,1,0\n")?.hasPrefix("t.csv: line 2: a quoted") == true)
        // The quote closed at the very end, a last row without its LF, and more cells than the header are read.
        guard case .faces(let faces) = try ReportTable.csv(text: header + row + "\"b\nc.jpg\",,,0,,1,2,30,40,extra", path: "t.csv")
        else {
            Issue.record("not read as faces")
            return
        }
        #expect(faces.map(\.source) == ["a.jpg", "b\nc.jpg"])
    }

    @Test("JSON Lines: a coordinate of 0 or a width of 1 is a number, true is not; lines count as an editor counts them")
    func jsonNumbers() throws {
        let line = #"{"source":"a.jpg","frame":0,"face":1,"tracking_id":0,"box":{"x":0,"y":1,"width":1,"height":1},"smiling_probability":0}"#
        let faces = try ReportTable.jsonLines(line + "\n", path: "t.jsonl")
        #expect(faces.map(\.box) == [CGRect(x: 0, y: 1, width: 1, height: 1)])
        #expect(faces.first?.frame == 0 && faces.first?.index == 1 && faces.first?.trackingID == 0)
        #expect(faces.first?.smiling == 0 && faces.first?.classified == true)
        let boolean = line.replacingOccurrences(of: #""width":1"#, with: #""width":true"#)
        do {
            _ = try ReportTable.jsonLines(line + "\n\n" + boolean + "\n", path: "t.jsonl")
            Issue.record("a width of true was read")
        } catch {
            #expect(error.description == "t.jsonl: line 3 is not a face object of analyze or track --format jsonl")
        }
        #expect(JSONNumber.of(true) == nil && JSONNumber.integer(1.5) == nil && JSONNumber.integer(2.0) == 2)
    }

    @Test("HTML text: markup, quotes and control characters are escaped")
    func escaping() {
        #expect(HTMLText.escaped("<script>alert('x')</script> & \"q\"") == "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;")
        #expect(HTMLText.escaped("a\nb") == "a\\x0Ab")
    }

    @Test("Histogram bins: a bin per count while few, doubling bins for sizes, every value counted")
    func histogramBins() {
        #expect(SVGHistogram.countBins([0, 1, 1, 2, 5]).map(\.label) == ["0", "1", "2", "3", "4", "5"])
        #expect(SVGHistogram.countBins([0, 1, 1, 2, 5]).map(\.count) == [1, 2, 1, 0, 0, 1])
        let many = SVGHistogram.countBins([0, 3, 70], maxBins: 30)
        #expect(many.first?.label == "0-4" && many.count == 15 && many.reduce(0) { $0 + $1.count } == 3)
        let sizes = SVGHistogram.doublingBins([20, 31.9, 32, 100, 640])
        #expect(sizes.map(\.label) == ["16-32", "32-64", "64-128", "128-256", "256-512", "512-1024"])
        #expect(sizes.map(\.count) == [2, 1, 1, 0, 0, 1])
        // Sizes no image has are left out rather than overflow a bin's bounds.
        #expect(SVGHistogram.doublingBins([20, 1e19, .infinity]).map(\.label) == ["16-32"])
    }

    @Test("A face box that is not finite, out of range or without area is an error naming the file and row")
    func badBoxes() throws {
        let header = "source,frame,timestamp_ms,face,tracking_id,x,y,width,height\n"
        for (box, row) in [("10,10,1e19,20", 3), ("10,nan,20,20", 3), ("10,10,0,20", 3), ("10,10,20,-3", 3)] {
            let text = header + "a.jpg,,,0,,1,2,30,40\n" + "b.jpg,,,0,," + box + "\n"
            #expect(throws: ReportTable.Unreadable.self) { try ReportTable.csv(text: text, path: "t.csv") }
            do {
                _ = try ReportTable.csv(text: text, path: "t.csv")
            } catch {
                #expect(error.description.hasPrefix("t.csv: line \(row): a face box must be finite"), "\(error.description)")
            }
        }
        let line = #"{"source":"a.jpg","face":0,"box":{"x":10.5,"y":20.5,"width":20000000,"height":40}}"#
        do {
            _ = try ReportTable.jsonLines(line + "\n", path: "t.jsonl")
            Issue.record("a box 20,000,000 px wide was read")
        } catch {
            #expect(error.description.hasPrefix("t.jsonl: line 1: a face box must be finite"), "\(error.description)")
        }
        let good = try ReportTable.csv(text: header + "a.jpg,,,0,,1,2,30,40\n", path: "t.csv")
        guard case .faces(let faces) = good else {
            Issue.record("not read as faces")
            return
        }
        #expect(faces.map(\.box) == [CGRect(x: 1, y: 2, width: 30, height: 40)])
    }

    @Test("A track's segments break at gaps; a blink is marked where the eyes open again")
    func trackSegmentsAndBlinks() {
        // 25 fps; track 0 seen frames 0-9 and 20-24, eyes closed on frames 4-5; track 1 frames 0-2.
        var faces: [ReportFace] = []
        for frame in Array(0...9) + Array(20...24) {
            var face = ReportFace(
                source: "c.mp4", frame: frame, timestampMs: Double(frame) * 40, index: 0,
                box: CGRect(x: 0, y: 0, width: 50, height: 50))
            face.trackingID = 0
            let open = (4...5).contains(frame) ? 0.1 : 0.9
            (face.leftEyeOpen, face.rightEyeOpen, face.classified) = (open, open, true)
            faces.append(face)
        }
        for frame in 0...2 {
            var face = ReportFace(
                source: "c.mp4", frame: frame, timestampMs: Double(frame) * 40, index: 1,
                box: CGRect(x: 60, y: 0, width: 50, height: 50))
            face.trackingID = 1
            faces.append(face)
        }
        let video = VideoTracks(source: "c.mp4", faces: faces)
        #expect(video.stepMs == 40)
        #expect(video.tracks.map(\.id) == [0, 1])
        let segments = video.segments(of: video.tracks[0])
        #expect(segments.map(\.startMs) == [0, 800] && segments.map(\.endMs) == [400, 1000])
        #expect(video.tracks[0].blinkTimesMs == [240])
        #expect(video.tracks[1].blinkTimesMs == [])
        let lanes = VideoTimeline(video: video).presence()
        #expect(ReportFixture.count("<div class=\"lane\"", in: lanes) == 2)
        // Track 0 is seen twice (0-400 ms, 800-1000 ms of 1000 ms): two segments in its lane.
        #expect(ReportFixture.count("<span class=\"segment\"", in: lanes) == 3)
        #expect(lanes.contains("style=\"left:0%;width:40%;") && lanes.contains("style=\"left:80%;width:20%;"))
    }

    @Test("Usage errors: no --output, no input, a bad --sheet-every exit 64")
    func usage() {
        #expect(TestSupport.run(["report", "a.csv"]).status == 64)
        #expect(TestSupport.run(["report", "--output", "/tmp/x"]).status == 64)
        let run = TestSupport.run(["report", "--output", "/tmp/x", "--sheet-every", "0", "a.csv"])
        #expect(run.status == 64 && run.stderr.contains("--sheet-every"))
    }

    @Test("From analyze's CSV: a thumbnail per photo, counts, histograms, relative links only", .needsModels)
    func fromAnalyzeCSV() throws {
        try TestSupport.withTemporaryFolder { folder in
            let table = try ReportFixture.analyzeTable(in: folder)
            let (run, report) = ReportFixture.report([table], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == report + "/index.html\n")
            let photos = try String(contentsOfFile: report + "/photos.html", encoding: .utf8)
            #expect(ReportFixture.count("<figure class=\"photo\"", in: photos) == ReportFixture.photos.count)
            for photo in ReportFixture.photos {
                #expect(photos.contains(HTMLText.escaped(photo.name)), "\(photo.name) is named, escaped")
            }
            let index = try String(contentsOfFile: report + "/index.html", encoding: .utf8)
            #expect(index.contains("<b>\(ReportFixture.photos.count)</b><span>photos with faces</span>"))
            #expect(ReportFixture.count("<svg class=\"histogram\"", in: index) == 2)
            #expect(try ReportFixture.brokenLinks(in: report) == [])
            // A thumbnail per photo, and the full photo it opens.
            let pictures = try FileManager.default.contentsOfDirectory(atPath: report + "/images")
            #expect(pictures.filter { $0.hasPrefix("photo-") }.count == ReportFixture.photos.count)
            #expect(pictures.filter { $0.hasPrefix("full-") }.count == ReportFixture.photos.count)
            #expect(pictures.count == 2 * ReportFixture.photos.count)
            // No descriptors, no names: a People page that says why it is empty and what to give instead.
            let people = try String(contentsOfFile: report + "/people.html", encoding: .utf8)
            #expect(ReportFixture.count("<div class=\"person\"", in: people) == 0)
            #expect(people.contains("faces of photos are in no person"))
            #expect(people.contains("facekit analyze --descriptors --format jsonl"))
        }
    }

    @Test("analyze's JSON Lines make the same pages as its CSV", .needsModels)
    func jsonLinesAsCSV() throws {
        try TestSupport.withTemporaryFolder { folder in
            let csv = try ReportFixture.analyzeTable(in: folder, format: "csv")
            let jsonl = try ReportFixture.analyzeTable(in: folder, format: "jsonl")
            let fromCSV = TestSupport.run(["report", "--output", folder + "/a", csv])
            let fromJSONL = TestSupport.run(["report", "--output", folder + "/b", jsonl])
            #expect(fromCSV.status == 0 && fromJSONL.status == 0)
            for page in ["photos.html"] {
                let a = try String(contentsOfFile: folder + "/a/" + page, encoding: .utf8)
                let b = try String(contentsOfFile: folder + "/b/" + page, encoding: .utf8)
                #expect(a == b, "\(page) differs")
            }
            let a = try Data(contentsOf: URL(fileURLWithPath: folder + "/a/images/photo-0.jpg"))
            let b = try Data(contentsOf: URL(fileURLWithPath: folder + "/b/images/photo-0.jpg"))
            #expect(a == b, "the same boxes are drawn")
        }
    }

    @Test("A source that cannot be read is listed with its reason; the rest is written; exit 1", .needsModels)
    func missingSource() throws {
        try TestSupport.withTemporaryFolder { folder in
            let table = try ReportFixture.analyzeTable(in: folder)
            try FileManager.default.removeItem(atPath: folder + "/photos/a b.png")
            let (run, report) = ReportFixture.report([table, folder + "/nothing.csv"], in: folder)
            #expect(run.status == 1)
            #expect(run.stderr.contains("a b.png"), "\(run.stderr)")
            #expect(run.stderr.contains("nothing.csv"), "\(run.stderr)")
            let index = try String(contentsOfFile: report + "/index.html", encoding: .utf8)
            #expect(index.contains("<table class=\"failures\">"))
            #expect(index.contains("a b.png</td><td>not shown: "))
            let photos = try String(contentsOfFile: report + "/photos.html", encoding: .utf8)
            #expect(ReportFixture.count("class=\"missing\"", in: photos) == 1)
            #expect(try ReportFixture.brokenLinks(in: report) == [])
        }
    }

    @Test("Photos analysed here: those without faces count, a broken file is listed with its reason", .needsModels)
    func analysedHere() throws {
        try TestSupport.withTemporaryFolder { folder in
            try TestSupport.makeFile(folder, "in/a.png", contents: TestSupport.astronautData())
            try TestSupport.makeFile(folder, "in/broken.jpg", contents: Data("not a photo".utf8))
            var blank = [UInt8](repeating: 128, count: 64 * 64)
            let empty = try blank.withUnsafeMutableBytes {
                try FaceImage(pixels: UnsafeRawBufferPointer($0), width: 64, height: 64, bytesPerRow: 64, format: .gray8)
            }.encoded(fileExtension: "png")
            try TestSupport.makeFile(folder, "in/grey.png", contents: empty)
            let (run, report) = ReportFixture.report(
                ["--model-dir", TestSupport.modelDirectory ?? "/nonexistent", folder + "/in"], in: folder)
            #expect(run.status == 1)
            #expect(run.stderrLines.count == 1 && run.stderr.contains("broken.jpg"), "\(run.stderr)")
            let index = try String(contentsOfFile: report + "/index.html", encoding: .utf8)
            #expect(index.contains("<b>2</b><span>photos analysed</span>"))
            #expect(index.contains("<b>1</b><span>face in photos</span>"))
            #expect(index.contains("<b>1</b><span>file failed</span>"))
            #expect(index.contains("broken.jpg</td><td>"))
            let photos = try String(contentsOfFile: report + "/photos.html", encoding: .utf8)
            #expect(photos.contains("data-faces=\"0\"") && photos.contains("data-faces=\"1\""))
            // Again, with the report inside the folder: its own pictures are not photos.
            let again = TestSupport.run([
                "report", "--model-dir", TestSupport.modelDirectory ?? "/nonexistent", "--output", folder + "/in/report",
                folder + "/in",
            ])
            let twice = TestSupport.run([
                "report", "--model-dir", TestSupport.modelDirectory ?? "/nonexistent", "--output", folder + "/in/report",
                folder + "/in",
            ])
            #expect(again.status == 1 && twice.status == 1)
            let inside = try String(contentsOfFile: folder + "/in/report/index.html", encoding: .utf8)
            #expect(inside.contains("<b>2</b><span>photos analysed</span>"))
        }
    }

    @Test("A file named with <script> is shown as text, in every page", .needsModels)
    func hostileName() throws {
        try TestSupport.withTemporaryFolder { folder in
            let name = "<script>alert(1)</script> & \"x\".png"
            try TestSupport.makeFile(folder, "in/" + name, contents: TestSupport.astronautData())
            let (run, report) = ReportFixture.report(
                ["--model-dir", TestSupport.modelDirectory ?? "/nonexistent", folder + "/in"], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            for page in ["index.html", "photos.html"] {
                // Shown names break after separators (<wbr>); the text between is escaped.
                let html = try String(contentsOfFile: report + "/" + page, encoding: .utf8)
                    .replacingOccurrences(of: "<wbr>", with: "")
                #expect(!html.contains("<script>alert"), "\(page) holds the name unescaped")
                #expect(!html.contains("\"x\".png"))
                if page == "photos.html" {
                    #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;.png"))
                }
            }
        }
    }

    @Test("A photo whose name is not UTF-8 is found again from the table and shown with \\xHH", .needsModels)
    func latin1Name() throws {
        try TestSupport.withTemporaryFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
            try TestSupport.makeFile(
                folder + "/in", nameBytes: TestSupport.latin1Name, contents: TestSupport.astronautData())
            let table = folder + "/faces.csv"
            let analyze = TestSupport.analyze(["--output", table, folder + "/in"])
            #expect(analyze.status == 0, "\(analyze.stderr)")
            let (run, report) = ReportFixture.report([table], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            let photos = try String(contentsOfFile: report + "/photos.html", encoding: .utf8)
            #expect(photos.contains("/<wbr>in/<wbr>caf\\xE9.png"))
            #expect(!photos.contains("class=\"missing\""), "the thumbnail was cut")
        }
    }

    @Test("A video's page: one lane and one timeline per track, a contact sheet", .needsModels)
    func videoPage() throws {
        try TestSupport.withTemporaryFolder { folder in
            let (tracks, summary) = try ReportFixture.trackTables(in: folder)
            let (run, report) = ReportFixture.report(["--sheet-every", "1", tracks, summary], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            let summaryRows = try CSVTable(text: try String(contentsOfFile: summary, encoding: .utf8)).rows
            let page = try String(contentsOfFile: report + "/videos/video-0.html", encoding: .utf8)
            #expect(ReportFixture.count("<div class=\"lane\"", in: page) == summaryRows.count)
            #expect(ReportFixture.count("<div class=\"track-plot\"", in: page) == summaryRows.count)
            #expect(ReportFixture.count("<path class=\"series smile\"", in: page) == summaryRows.count)
            // crossing.mp4 lasts 5 s: a frame each second from 0 to 4.
            #expect(ReportFixture.count("<div class=\"sheet\">", in: page) == 1)
            #expect(ReportFixture.count("src=\"../images/video-0-", in: page) == 5)
            #expect(try ReportFixture.brokenLinks(in: report) == [])
        }
    }

    @Test("A video analysed here has the tracks track's table gives: the same presence chart", .needsModels)
    func videoAnalysedHere() throws {
        try TestSupport.withTemporaryFolder { folder in
            let (tracks, summary) = try ReportFixture.trackTables(in: folder)
            let fromTable = TestSupport.run(["report", "--output", folder + "/a", tracks, summary])
            let direct = TestSupport.run([
                "report", "--model-dir", TestSupport.modelDirectory ?? "/nonexistent", "--classify", "--output",
                folder + "/b", ReportFixture.clip,
            ])
            #expect(fromTable.status == 0 && direct.status == 0, "\(fromTable.stderr) \(direct.stderr)")
            func presence(_ report: String) throws -> String {
                let page = try String(contentsOfFile: report + "/videos/video-0.html", encoding: .utf8)
                let start = try #require(page.range(of: "<div class=\"lanes\"")).lowerBound
                let end = try #require(page[start...].range(of: "<h2>")).lowerBound
                return String(page[start..<end])
            }
            #expect(try presence(folder + "/a") == presence(folder + "/b"))
            #expect(try ReportFixture.count("<div class=\"lane\"", in: presence(folder + "/b")) == 2)
        }
    }

    @Test("People from group's tables: a best shot per person, a page of crops each", .needsModels)
    func peopleFromGroup() throws {
        try TestSupport.withTemporaryFolder { folder in
            let (faces, people) = try ReportFixture.groupTables(in: folder)
            let (run, report) = ReportFixture.report(["--faces-per-person", "2", faces, people], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            let grid = try String(contentsOfFile: report + "/people.html", encoding: .utf8)
            #expect(ReportFixture.count("<div class=\"person\"", in: grid) == 2)
            #expect(grid.contains("Eileen Collins") && grid.contains("Person 1"))
            #expect(grid.contains("3 photos · 0 videos"))
            let first = try String(contentsOfFile: report + "/people/person-0.html", encoding: .utf8)
            #expect(ReportFixture.count("<figure>", in: first) == 2, "at most --faces-per-person")
            #expect(first.contains("the best 2 shown"))
            #expect(try ReportFixture.brokenLinks(in: report) == [])
            // group's photo rows also make the Photos page when no analyze table is given.
            let photos = try String(contentsOfFile: report + "/photos.html", encoding: .utf8)
            #expect(ReportFixture.count("<figure class=\"photo\"", in: photos) == ReportFixture.photos.count)
        }
    }

    @Test("People from facekit group's own output: a card per person, photos and video frames cropped", .needsModels)
    func peopleFromGroupCommand() throws {
        try TestSupport.withTemporaryFolder { folder in
            let (groupFaces, groupPeople) = try ReportFixture.groupCommandTables(in: folder)
            let peopleRows = try CSVTable(text: try String(contentsOfFile: groupPeople, encoding: .utf8)).rows
            // The photos and both people of the clip are the same astronaut: one person, maybe more.
            #expect(peopleRows.count >= 1)
            let (run, report) = ReportFixture.report(
                [groupFaces, groupPeople], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            let grid = try String(contentsOfFile: report + "/people.html", encoding: .utf8)
            #expect(ReportFixture.count("<div class=\"person\"", in: grid) == peopleRows.count)
            #expect(!grid.contains("class=\"missing\""), "every best shot was cut, video frames too")
            #expect(grid.contains(" 1 video"), "the clip's tracks are people in a video")
            #expect(try ReportFixture.brokenLinks(in: report) == [])
        }
    }

    @Test("People from --known names: in analyze's table by name, analysed here by descriptor", .needsModels)
    func peopleFromKnown() throws {
        try TestSupport.withTemporaryFolder { folder in
            let photos = try ReportFixture.photoFolder(in: folder)
            try TestSupport.makeFile(folder, "known/Eileen Collins.png", contents: TestSupport.astronautData())
            let table = folder + "/named.csv"
            let analyze = TestSupport.analyze(["--known", folder + "/known", "--output", table, photos])
            #expect(analyze.status == 0, "\(analyze.stderr)")
            let fromTable = TestSupport.run(["report", "--output", folder + "/a", table])
            let direct = TestSupport.run([
                "report", "--model-dir", TestSupport.modelDirectory ?? "/nonexistent", "--known", folder + "/known",
                "--output", folder + "/b", photos,
            ])
            #expect(fromTable.status == 0 && direct.status == 0, "\(fromTable.stderr) \(direct.stderr)")
            let a = try String(contentsOfFile: folder + "/a/people.html", encoding: .utf8)
            let b = try String(contentsOfFile: folder + "/b/people.html", encoding: .utf8)
            // From the table, names alone group the faces; analysed here, descriptors do, and
            // the person is named after the name most of their faces were given.
            #expect(ReportFixture.count("<div class=\"person\"", in: a) == 1)
            #expect(a.contains("<b>Eileen Collins</b>") && b.contains("<b>Eileen Collins</b>"))
            #expect(a.contains("grouped by their <code>--known</code> name"))
            #expect(b.contains("Grouped by this report from the faces' descriptors"))
            let named = try CSVTable(text: try String(contentsOfFile: table, encoding: .utf8))
            let person = try #require(named.column("person"))
            let count = Set(named.rows.filter { $0[person] == "Eileen Collins" }.map { $0[0] }).count
            #expect(count >= 1)
            #expect(a.contains("\(count) photo" + (count == 1 ? "" : "s") + " · 0 videos"))
        }
    }
}
