import FaceKit
import Foundation
import Testing
import FaceKitTestSupport

@testable import FaceKitCLI

/// A report one can find one's way through: every picture opens its full picture, each track and
/// person shows a best face beside its ID, `--known` names stand wherever IDs do, a report of
/// `group`'s tables counts its videos, and long paths wrap between their parts.
@Suite("facekit report: links, best faces, names, counts, wrapping")
struct ReportNavigationTests {
    /// Each `<img>` of `html` with the `href` of the link it is in, `nil` when it is in none.
    static func imageLinks(in html: String) -> [(src: String, href: String?)] {
        var result: [(String, String?)] = []
        var rest = Substring(html)
        var openLink: String?
        while let next = rest.range(of: "<(a |/a>|img )", options: .regularExpression) {
            let tag = rest[next]
            let end = rest[next.upperBound...].firstIndex(of: ">") ?? rest.endIndex
            let element = String(rest[next.lowerBound..<end])
            if tag.hasPrefix("<a ") {
                openLink = ReportFixture.attributes(["href"], in: element).first
            } else if tag == "</a>" {
                openLink = nil
            } else {
                result.append((ReportFixture.attributes(["src"], in: element).first ?? "", openLink))
            }
            rest = rest[next.upperBound...]
        }
        return result
    }

    @Test("Paths break after /, _ and - only; the style sheet never breaks inside a word")
    func pathWrapping() {
        #expect(HTMLText.path("/data/video/short_hamilton-clip.mp4") == "/<wbr>data/<wbr>video/<wbr>short_<wbr>hamilton-<wbr>clip.mp4")
        #expect(HTMLText.path("<a>/b") == "&lt;a&gt;/<wbr>b")
        #expect(!ReportPage.styleSheet.contains("anywhere"))
    }

    @Test("A track's and a person's best face: quality first, else score x size x frontalness")
    func bestShot() {
        func face(score: Double, width: Double, yaw: Double) -> ReportFace {
            var face = ReportFace(source: "v.mp4", frame: 0, timestampMs: 0, index: 0, box: CGRect(x: 0, y: 0, width: width, height: width))
            (face.detectionScore, face.headEulerY, face.headEulerX, face.trackingID) = (score, yaw, 0, 0)
            return face
        }
        let frontal = face(score: 0.9, width: 120, yaw: 2), turned = face(score: 0.95, width: 150, yaw: 50)
        #expect(frontal.shotRank > turned.shotRank, "a frontal face beats a larger one turned 50°")
        #expect(face(score: 0.9, width: 160, yaw: 0).shotRank > frontal.shotRank, "a larger one beats it")
        var rated = turned
        rated.quality = 0.9
        #expect(rated.shotRank == 0.9)
        var frames = [turned, frontal, face(score: 0.8, width: 60, yaw: 0)]
        for index in frames.indices { (frames[index].frame, frames[index].timestampMs) = (index, Double(index) * 40) }
        #expect(VideoTracks(source: "v.mp4", faces: frames).tracks.first?.best?.frame == 1)
    }

    @Test("The contact sheet's tags are at least 12 CSS px (a font's capitals are 0.7 of it) at its narrowest frames")
    func sheetLabelSize() {
        let style = AnnotationStyle(imageWidth: 1280, imageHeight: 720, fixedTextHeight: 30)
        #expect(style.textHeight(forFaceWidth: 40) == 30 && style.textHeight(forFaceWidth: 400) == 30)
        let css = ReportPictures.sheetLabelHeight * Double(ReportPage.sheetColumnWidth) / Double(ReportPictures.frameWidth) / 0.7
        #expect(css >= 12)
    }

    @Test("Every thumbnail, crop and sheet frame links to a full picture in the site; best faces beside IDs", .needsModels)
    func everyPictureLinks() throws {
        try TestSupport.withTemporaryFolder { folder in
            let (run, report, summary) = try ReportFixture.reportOfEveryTable(in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            let broken = try ReportFixture.brokenLinks(in: report)
            #expect(broken == [], "\(broken)")
            var pages = 0, fullLinks = 0
            let enumerator = FileManager.default.enumerator(atPath: report)!
            while let page = enumerator.nextObject() as? String {
                guard page.hasSuffix(".html") else { continue }
                pages += 1
                let html = try String(contentsOfFile: report + "/" + page, encoding: .utf8)
                for image in Self.imageLinks(in: html) {
                    let href = try #require(image.href, "\(page): \(image.src) links to nothing")
                    if href.contains("images/full-") { fullLinks += 1 }
                    if page.hasPrefix("people/") || page.hasPrefix("videos/") || page == "photos.html" {
                        #expect(href.contains("images/full-"), "\(page): \(image.src) opens \(href), not its full picture")
                    }
                }
            }
            #expect(pages >= 6 && fullLinks > 0)
            // A photo's full picture is the photo at its size; a sheet frame's, the frame at the video's.
            let photos = try String(contentsOfFile: report + "/photos.html", encoding: .utf8)
            let first = try #require(Self.imageLinks(in: photos).first?.href)
            let photo = try FaceImage(contentsOfFile: folder + "/photos/a b.png")
            #expect(try FaceImage(contentsOfFile: report + "/" + first).width == min(photo.width, ReportPictures.fullSide))
            let videoPage = try String(contentsOfFile: report + "/videos/video-0.html", encoding: .utf8)
            let sheet = Self.imageLinks(in: videoPage).filter { $0.src.contains("images/video-0-") }
            #expect(sheet.count == 5)
            let clip = try VideoReader(contentsOfFile: ReportFixture.clip)
            for frame in sheet {
                let full = try FaceImage(contentsOfFile: report + "/videos/" + frame.href!)
                #expect(full.width == clip.width && full.height == clip.height)
            }
            // Each track: a best face beside its ID in its heading and in the tracks table.
            let summaryRows = try CSVTable(text: try String(contentsOfFile: summary, encoding: .utf8)).rows.count
            let heads = videoPage.components(separatedBy: "<div class=\"track-head\">").dropFirst()
            #expect(heads.count == summaryRows)
            for (number, head) in heads.enumerated() {
                #expect(head.hasPrefix("<a class=\"full\" href=\"../images/full-"))
                #expect(head.contains("src=\"../images/track-0-\(number).jpg\""))
                #expect(FileManager.default.fileExists(atPath: report + "/images/track-0-\(number).jpg"))
            }
            #expect(ReportFixture.count("<td class=\"face\"><a class=\"full\"", in: videoPage) == summaryRows)
            let person = try String(contentsOfFile: report + "/people/person-0.html", encoding: .utf8)
            #expect(person.contains("<div class=\"person-head\"><a class=\"full\" href=\"../images/full-"))
            // The people grid: each best shot opens its full picture, each caption the person's page.
            let grid = try String(contentsOfFile: report + "/people.html", encoding: .utf8)
            let cards = grid.components(separatedBy: "<div class=\"person\">").dropFirst()
            #expect(!cards.isEmpty)
            for (number, card) in cards.enumerated() {
                #expect(card.hasPrefix("<a class=\"full\" href=\"images/full-"), "\(card)")
                #expect(card.contains("<a class=\"person-link\" href=\"people/person-\(number).html\">"))
            }
        }
    }

    @Test("--known names stand beside the IDs: lanes, track headings, the tracks table, the sheet's tags", .needsModels)
    func namesWhereIDs() throws {
        try TestSupport.withTemporaryFolder { folder in
            try TestSupport.makeFile(folder, "known/Eileen Collins.png", contents: TestSupport.astronautData())
            let tracks = folder + "/tracks.csv"
            let track = TestSupport.run([
                "track", "--model-dir", TestSupport.modelDirectory ?? "/nonexistent", "--known", folder + "/known",
                "--output", tracks, ReportFixture.clip,
            ])
            #expect(track.status == 0, "\(track.stderr)")
            let table = try CSVTable(text: try String(contentsOfFile: tracks, encoding: .utf8))
            let id = try #require(table.column("tracking_id")), name = try #require(table.column("person"))
            let named = Set(table.rows.filter { $0[name] == "Eileen Collins" }.map { $0[id] })
            try #require(!named.isEmpty, "the astronaut of the clip is recognised")
            let (run, report) = ReportFixture.report([tracks], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            let page = try String(contentsOfFile: report + "/videos/video-0.html", encoding: .utf8)
            let list = try String(contentsOfFile: report + "/videos.html", encoding: .utf8)
            for trackID in named {
                #expect(page.contains(">ID \(trackID) · Eileen Collins</a><div class=\"lane-bar\">"), "the lane of ID \(trackID)")
                #expect(page.contains("ID \(trackID) · Eileen Collins</h3>"), "the heading of ID \(trackID)")
                #expect(
                    list.contains(">ID \(trackID)</a></td><td><a href=\"people/person-0.html\">Eileen Collins</a></td>"),
                    "the tracks table names the track and links its person")
            }
            let people = try String(contentsOfFile: report + "/people.html", encoding: .utf8)
            #expect(people.contains("<b>Eileen Collins</b>"))
            let broken = try ReportFixture.brokenLinks(in: report)
            #expect(broken == [], "\(broken)")
        }
    }

    @Test("A report of group's tables counts the video its people are in, and leaves no empty folder", .needsModels)
    func groupCounts() throws {
        try TestSupport.withTemporaryFolder { folder in
            let (groupFaces, groupPeople) = try ReportFixture.groupCommandTables(in: folder)
            let (run, report) = ReportFixture.report([groupFaces, groupPeople], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            let faces = try CSVTable(text: try String(contentsOfFile: groupFaces, encoding: .utf8))
            let frame = try #require(faces.column("frame"))
            let videoRows = faces.rows.filter { !$0[frame].isEmpty }.count
            let index = try String(contentsOfFile: report + "/index.html", encoding: .utf8)
            #expect(index.contains("<b>1</b><span>video</span>"))
            #expect(index.contains("<b>\(videoRows)</b><span>tracks in videos</span>"))
            let grid = try String(contentsOfFile: report + "/people.html", encoding: .utf8)
            #expect(grid.contains(" 1 video"))
            #expect(!FileManager.default.fileExists(atPath: report + "/videos"))
            let enumerator = FileManager.default.enumerator(atPath: report)!
            while let entry = enumerator.nextObject() as? String {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: report + "/" + entry, isDirectory: &isFolder), isFolder.boolValue {
                    #expect(try !FileManager.default.contentsOfDirectory(atPath: report + "/" + entry).isEmpty, "\(entry) is empty")
                }
            }
        }
    }
}
