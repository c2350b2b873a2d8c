import Foundation
import Testing
import FaceKitTestSupport

@testable import FaceKitCLI

/// The tables `facekit report` is tested on, made by running `analyze` and `track` on the
/// redistributable fixtures, and `group`'s two tables written by hand from analyze's rows as the
/// people contract describes them (person_id, first_frame, last_frame after analyze's columns;
/// people.csv's columns).
enum ReportFixture {
    /// The photos, by the names they are copied to: a space, a non-ASCII letter, quotes.
    static let photos: [(name: String, fixture: String, person: Int)] = [
        ("a b.png", "astronaut.png", 0),
        ("café.jpg", "astronaut.jpg", 0),
        ("portrait.png", "astronaut-portrait.png", 0),
        ("quote \"q\" 'r'.png", "astronaut-gray.png", 1),
    ]

    static let clip = TestData.repository.appendingPathComponent("TestVideos/crossing.mp4").path

    /// Copies the photos into `folder/photos/` and returns that folder.
    static func photoFolder(in folder: String) throws -> String {
        for photo in photos {
            try TestSupport.makeFile(
                folder, "photos/" + photo.name, contents: Data(contentsOf: TestData.repository
                    .appendingPathComponent("Tests/Fixtures/" + photo.fixture)))
        }
        return folder + "/photos"
    }

    /// `analyze --classify` of the photos into `folder/faces.<format>`.
    static func analyzeTable(in folder: String, format: String = "csv") throws -> String {
        let photos = folder + "/photos"
        if !FileManager.default.fileExists(atPath: photos) { _ = try photoFolder(in: folder) }
        let table = folder + "/faces." + format
        let run = TestSupport.analyze(["--classify", "--format", format, "--output", table, photos])
        try #require(run.status == 0, "analyze failed: \(run.stderr)")
        return table
    }

    /// `track --classify --summary` of crossing.mp4 (two people crossing).
    static func trackTables(in folder: String) throws -> (tracks: String, summary: String) {
        let tracks = folder + "/tracks.csv", summary = folder + "/summary.csv"
        let run = TestSupport.run([
            "track", "--model-dir", TestSupport.modelDirectory ?? "/nonexistent", "--classify", "--output", tracks,
            "--summary", summary, clip,
        ])
        try #require(run.status == 0, "track failed: \(run.stderr)")
        return (tracks, summary)
    }

    /// group's faces.csv and people.csv for the photos: each photo's face with its person.
    static func groupTables(in folder: String) throws -> (faces: String, people: String) {
        let analyze = try CSVTable(text: try String(contentsOfFile: try analyzeTable(in: folder), encoding: .utf8))
        let source = try #require(analyze.column("source"))
        var faces = CSVFaceWriter.line(analyze.header + ["person_id", "first_frame", "last_frame"])
        var people: [Int: [[String]]] = [:]
        for row in analyze.rows {
            let name = (row[source] as NSString).lastPathComponent
            let person = try #require(photos.first { $0.name == name }?.person, "no person for \(name)")
            faces += CSVFaceWriter.line(row + [String(person), "", ""])
            people[person, default: []].append(row)
        }
        var table = CSVFaceWriter.line([
            "person_id", "name", "faces", "photos", "videos", "best_source", "best_frame", "best_x", "best_y",
            "best_width", "best_height", "best_quality",
        ])
        for id in people.keys.sorted() {
            let rows = people[id]!
            let best = rows[0]
            let cell = { (name: String) in best[analyze.column(name)!] }
            table += CSVFaceWriter.line([
                String(id), id == 0 ? "Eileen Collins" : "", String(rows.count), String(rows.count), "0", cell("source"),
                "", cell("x"), cell("y"), cell("width"), cell("height"), "0.8",
            ])
        }
        let facesPath = folder + "/group-faces.csv", peoplePath = folder + "/people.csv"
        try Data(faces.utf8).write(to: URL(fileURLWithPath: facesPath))
        try Data(table.utf8).write(to: URL(fileURLWithPath: peoplePath))
        return (facesPath, peoplePath)
    }

    /// `facekit group`'s own faces.csv and people.csv, run on the photos and crossing.mp4 into
    /// `folder/group/`.
    static func groupCommandTables(in folder: String) throws -> (faces: String, people: String) {
        let photos = try photoFolder(in: folder)
        let run = TestSupport.run([
            "group", "--model-dir", TestSupport.modelDirectory ?? "/nonexistent", "--output", folder + "/group", photos,
            clip,
        ])
        try #require(run.status == 0, "group failed: \(run.stderr)")
        return (folder + "/group/faces.csv", folder + "/group/people.csv")
    }

    /// A report of every kind of table at once (analyze's, track's two, group's two), with every
    /// frame of the clip on the contact sheet: a site with every page. Returns track's summary too,
    /// a row per track the site shows.
    static func reportOfEveryTable(in folder: String) throws -> (run: TestSupport.Run, report: String, summary: String) {
        let (faces, people) = try groupTables(in: folder)
        let (tracks, summary) = try trackTables(in: folder)
        let (run, site) = report(["--sheet-every", "1", folder + "/faces.csv", tracks, summary, faces, people], in: folder)
        return (run, site, summary)
    }

    /// Runs `facekit report --output <folder>/report <arguments>` in process.
    static func report(_ arguments: [String], in folder: String) -> (TestSupport.Run, String) {
        let output = folder + "/report"
        return (TestSupport.run(["report", "--output", output] + arguments), output)
    }

    /// Every `src` and `href` of every page of the report: each must be a relative path that
    /// names a file inside the report. Returns the problems found.
    static func brokenLinks(in report: String) throws -> [String] {
        var problems: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: report)!
        let root = URL(fileURLWithPath: report).standardizedFileURL.path
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".html") else { continue }
            let html = try String(contentsOfFile: report + "/" + relative, encoding: .utf8)
            let folder = (relative as NSString).deletingLastPathComponent
            for link in attributes(["src", "href"], in: html) {
                if link.contains(":") || link.hasPrefix("/") {
                    problems.append("\(relative): \(link) is not relative")
                    continue
                }
                // `page.html#id` (or `#id`, this page): the page must exist and hold that id.
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = parts[0].isEmpty ? (relative as NSString).lastPathComponent : String(parts[0])
                let target = URL(fileURLWithPath: report + "/" + (folder.isEmpty ? "" : folder + "/") + file)
                    .standardizedFileURL.path
                if !target.hasPrefix(root + "/") { problems.append("\(relative): \(link) leaves the report") }
                if !FileManager.default.fileExists(atPath: target) {
                    problems.append("\(relative): \(link) is missing")
                } else if parts.count == 2 {
                    let page = try String(contentsOfFile: target, encoding: .utf8)
                    if !page.contains(" id=\"\(parts[1])\"") { problems.append("\(relative): \(link): no such id") }
                }
            }
        }
        return problems
    }

    /// The values of `name="..."` attributes in `html`.
    static func attributes(_ names: [String], in html: String) -> [String] {
        var values: [String] = []
        for name in names {
            var rest = Substring(html)
            let marker = " \(name)=\""
            while let start = rest.range(of: marker) {
                rest = rest[start.upperBound...]
                guard let end = rest.firstIndex(of: "\"") else { break }
                values.append(String(rest[..<end]))
                rest = rest[end...]
            }
        }
        return values
    }

    /// How many times `needle` occurs in `text`.
    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }
}
