import FaceKit
import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// `facekit group` on small inputs: the astronaut fixtures and clips (one person), the
/// development identities (5 named people), and the JSON Lines of analyze --descriptors.
@Suite("group")
struct GroupCommandTests {
    /// A CSV file of the output folder as rows of named cells (no quoted commas in these tests).
    static func table(_ path: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Dictionary(uniqueKeysWithValues: zip(header, cells))
        }
    }

    static func group(_ arguments: [String]) -> TestSupport.Run {
        TestSupport.run(["group", "--model-dir", TestSupport.modelDirectory ?? "/nonexistent"] + arguments)
    }

    @Test("the astronaut in photos and in a clip of her and her twin is one person", .needsModels)
    func onePerson() throws {
        try TestSupport.withTemporaryFolder { root in
            let photos = ["astronaut.png", "astronaut.jpg", "astronaut-portrait-exif6.jpg", "astronaut-gray.png"]
                .map(TestData.fixture)
            let clip = TestData.repository.appendingPathComponent("TestVideos/crossing.mp4").path
            let run = Self.group(["--output", root + "/people"] + photos + [clip])
            #expect(run.status == 0, "\(run.stderr)")
            let people = try Self.table(root + "/people/people.csv")
            let faces = try Self.table(root + "/people/faces.csv")
            try #require(people.count == 1, "\(people)")
            let videoRows = faces.filter { !$0["frame"]!.isEmpty }
            #expect(faces.count == photos.count + videoRows.count)
            // The astronaut and her twin: two tracks at least, each once, with its span.
            #expect(videoRows.count >= 2)
            #expect(Set(videoRows.map { $0["tracking_id"]! }).count == videoRows.count)
            for row in videoRows {
                let (first, frame, last) = (Int(row["first_frame"]!)!, Int(row["frame"]!)!, Int(row["last_frame"]!)!)
                #expect(first <= frame && frame <= last && last < 125, "\(row)")
            }
            #expect(faces.allSatisfy { $0["person_id"] == "0" })
            #expect(people[0]["faces"] == String(faces.count) && people[0]["photos"] == "4" && people[0]["videos"] == "1")
            // The best shot is the face of highest quality.
            let best = faces.max { Double($0["quality"]!)! < Double($1["quality"]!)! }!
            #expect(people[0]["best_source"] == best["source"] && people[0]["best_quality"] == best["quality"])
            #expect(people[0]["best_frame"] == best["frame"] && people[0]["best_x"] == best["x"])
        }
    }

    @Test("track's JSON Lines give one face per track, with its span: the tables of the clip itself", .needsModels)
    func trackLines() throws {
        try TestSupport.withTemporaryFolder { root in
            let clip = TestData.repository.appendingPathComponent("TestVideos/crossing.mp4").path
            let lines = root + "/tracks.jsonl"
            let tracked = TrackCommandTests.track(["--descriptors", "--format", "jsonl", "--output", lines, clip])
            #expect(tracked.status == 0, "\(tracked.stderr)")
            let lineCount = try String(contentsOfFile: lines, encoding: .utf8).split(separator: "\n").count
            let fromLines = Self.group(["--output", root + "/lines", lines])
            #expect(fromLines.status == 0, "\(fromLines.stderr)")
            let faces = try Self.table(root + "/lines/faces.csv")
            // About 230 lines (two faces in most of 125 frames) make one face per track.
            #expect(lineCount > 100 && faces.count >= 2 && faces.count <= 4, "\(lineCount) lines, \(faces.count) faces")
            #expect(Set(faces.map { $0["tracking_id"]! }).count == faces.count)
            for row in faces {
                let (first, frame, last) = (Int(row["first_frame"]!)!, Int(row["frame"]!)!, Int(row["last_frame"]!)!)
                #expect(first <= frame && frame <= last && last < 125, "\(row)")
                #expect(!row["person_id"]!.isEmpty, "each track has a descriptor: \(row)")
            }
            // The same best shots, spans and people as when the clip itself is grouped (the twins,
            // on screen together, stay two people).
            let direct = Self.group(["--output", root + "/direct", clip])
            #expect(direct.status == 0, "\(direct.stderr)")
            try Self.expectSameOutputs(root + "/direct", root + "/lines")
        }
    }

    /// Expects the two output folders to hold the same faces.csv and people.csv.
    static func expectSameOutputs(_ a: String, _ b: String) throws {
        for file in ["faces.csv", "people.csv"] {
            #expect(
                try String(contentsOfFile: a + "/" + file, encoding: .utf8)
                    == String(contentsOfFile: b + "/" + file, encoding: .utf8), "\(file)")
        }
    }

    /// Who each face of photos/identities is: the folder in train/; in test/, the file's
    /// people left to right (nil: someone unnamed).
    static func identity(_ source: String, x: Double, among xs: [Double]) -> String? {
        let path = source.split(separator: "/").map(String.init)
        if path[path.count - 3] == "train" { return path[path.count - 2] }
        let rank = xs.sorted().firstIndex(of: x)!
        let people: [String: [String?]] = [
            "alex_lacamoire1.jpg": ["alex_lacamoire"], "johnsnow_test1.jpg": ["kit_harington"],
            "kit_with_rose.jpg": ["rose_leslie", "kit_harington"], "obama1.jpg": ["obama"],
            "obama_and_biden.jpg": ["biden", "obama", nil],
        ]
        return people[path.last!]![rank]
    }

    @Test("the development identities: one person per named person, the same from photos and from JSON Lines",
          .needsModels, .needsSharedData)
    func identities() throws {
        try TestSupport.withTemporaryFolder { root in
            let folder = TestData.shared("photos/identities")
            let direct = Self.group(["--output", root + "/direct", folder])
            #expect(direct.status == 0, "\(direct.stderr)")
            let faces = try Self.table(root + "/direct/faces.csv")
            #expect(faces.count == 17)
            // Same person_id exactly when the same named person.
            for a in faces {
                for b in faces where a["source"]! + a["face"]! < b["source"]! + b["face"]! {
                    let xsA = faces.filter { $0["source"] == a["source"] }.map { Double($0["x"]!)! }
                    let xsB = faces.filter { $0["source"] == b["source"] }.map { Double($0["x"]!)! }
                    let personA = Self.identity(a["source"]!, x: Double(a["x"]!)!, among: xsA)
                    let personB = Self.identity(b["source"]!, x: Double(b["x"]!)!, among: xsB)
                    let same = personA != nil && personA == personB
                    #expect((a["person_id"] == b["person_id"]) == same, "\(a["source"]!) \(b["source"]!)")
                }
            }
            let people = try Self.table(root + "/direct/people.csv")
            let counts: [Int] = people.map { Int($0["faces"]!)! }
            #expect(counts == counts.sorted(by: >))
            let ids: [String?] = people.map { $0["person_id"] }
            #expect(ids == (0..<people.count).map { String($0) })

            let lines = root + "/faces.jsonl"
            let analysed = TestSupport.analyze(["--descriptors", "--format", "jsonl", "--output", lines, folder])
            #expect(analysed.status == 0, "\(analysed.stderr)")
            let fromLines = Self.group(["--output", root + "/lines", lines])
            #expect(fromLines.status == 0, "\(fromLines.stderr)")
            try Self.expectSameOutputs(root + "/direct", root + "/lines")
        }
    }

    @Test("the Hamilton clip and cast: Miranda's track (both shots) and his photo are one person; faces on screen together are not",
          .needsModels, .needsSharedData)
    func hamilton() throws {
        try TestSupport.withTemporaryFolder { root in
            let run = Self.group([
                "--output", root + "/out", TestData.shared("video/short_hamilton_clip.mp4"), TestData.shared("video/hamilton-cast"),
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let faces = try Self.table(root + "/out/faces.csv")
            let tracks = faces.filter { !$0["frame"]!.isEmpty }
            // Miranda: the wide shot before the first cut (frames 0-19) and the medium shot (82-210),
            // one track as `track` joins them.
            let miranda = faces.first { $0["source"]!.hasSuffix("lin-manuel-miranda.png") }!["person_id"]
            let shots = tracks.filter { $0["first_frame"] == "0" }
            #expect(shots.count == 1 && shots.allSatisfy { $0["last_frame"] == "210" && $0["person_id"] == miranda }, "\(tracks)")
            for a in tracks {
                for b in tracks where a["tracking_id"]! < b["tracking_id"]! {
                    let together = Int(a["first_frame"]!)! <= Int(b["last_frame"]!)!
                        && Int(b["first_frame"]!)! <= Int(a["last_frame"]!)!
                    if together { #expect(a["person_id"] != b["person_id"], "\(a) \(b)") }
                }
            }
        }
    }

    @Test("--known names each person after the known person most of their faces match", .needsModels, .needsSharedData)
    func known() throws {
        try TestSupport.withTemporaryFolder { root in
            let known = try KnownPeopleTests.knownFolder(root, folders: ["biden", "obama"])
            let run = Self.group(["--output", root + "/out", "--known", known, TestData.shared("photos/identities/test")])
            #expect(run.status == 0, "\(run.stderr)")
            let people = try Self.table(root + "/out/people.csv")
            let faces = try Self.table(root + "/out/faces.csv")
            #expect(Set(people.compactMap { $0["name"]!.isEmpty ? nil : $0["name"] }) == ["biden", "obama"])
            for person in people where !person["name"]!.isEmpty {
                let members = faces.filter { $0["person_id"] == person["person_id"] }
                #expect(members.allSatisfy { $0["person"] == person["name"] }, "\(members)")
            }
            #expect(faces.filter { $0["source"]!.hasSuffix("obama1.jpg") }.allSatisfy { $0["person"] == "obama" })
        }
    }

    @Test("JSON Lines: a file without descriptors is refused whole, a broken line is skipped, the rest grouped")
    func badLines() throws {
        try TestSupport.withTemporaryFolder { root in
            let descriptor = (0..<128).map { _ in "0.01" }.joined(separator: ",")
            let face = #"{"source":"a.jpg","frame":null,"face":0,"box":{"x":1,"y":2,"width":30,"height":40},"quality":0.5,"descriptor":[\#(descriptor)]}"#
            let good = try TestSupport.makeFile(
                root, "good.jsonl", contents: Data((face + "\n" + "{\"source\":\"b.jpg\",\"fa\n" + face + "\n").utf8))
            let plain = try TestSupport.makeFile(
                root, "plain.jsonl",
                contents: Data(#"{"source":"c.jpg","frame":null,"face":0,"box":{"x":1,"y":2,"width":30,"height":40}}"#.utf8))
            let run = Self.group(["--output", root + "/out", plain, good, root + "/missing.jsonl"])
            #expect(run.status == 1)
            #expect(run.stderrLines.count == 3, "\(run.stderr)")
            #expect(run.stderr.contains("plain.jsonl: line 1 has no descriptor"))
            #expect(run.stderr.contains("good.jsonl: line 2 skipped"))
            #expect(run.stderr.contains("missing.jsonl: cannot read file"))
            let faces = try Self.table(root + "/out/faces.csv")
            #expect(faces.count == 2 && faces.allSatisfy { $0["person_id"] == "0" && $0["source"] == "a.jpg" })
            #expect(try Self.table(root + "/out/people.csv").map(\.["faces"]) == ["2"])
        }
    }

    @Test("JSON Lines: absurd numbers, a descriptor of text and a line of 2 MiB are skipped by name; memory stays bounded")
    func absurdLines() throws {
        try TestSupport.withTemporaryFolder { root in
            func line(descriptor: String, quality: String = "0.5") -> String {
                #"{"source":"a.jpg","frame":null,"face":0,"box":{"x":1,"y":2,"width":30,"height":40},"quality":\#(quality),"descriptor":\#(descriptor)}"#
            }
            let numbers = (0..<128).map { _ in "0.01" }
            let good = line(descriptor: "[" + numbers.joined(separator: ",") + "]")
            let lines = [
                good,
                line(descriptor: "[1e308," + numbers.dropFirst().joined(separator: ",") + "]"),
                line(descriptor: #""abc""#),
                line(descriptor: "[" + numbers.joined(separator: ",") + "]", quality: "1e300"),
                good.replacingOccurrences(of: #""a.jpg""#, with: "\"" + String(repeating: "x", count: 2 << 20) + "\""),
                good,
            ]
            let file = try TestSupport.makeFile(root, "faces.jsonl", contents: Data((lines.joined(separator: "\n") + "\n").utf8))
            let run = Self.group(["--output", root + "/out", file])
            #expect(run.status == 1)
            #expect(run.stderrLines.count == 4, "\(run.stderr)")
            for (number, reason) in [
                (2, "\"descriptor\" is neither null nor 128 numbers"), (3, "\"descriptor\" is neither null nor 128 numbers"),
                (4, "\"quality\" is not a number from 0 to 1"), (5, "longer than 1024 KiB"),
            ] {
                #expect(run.stderr.contains("faces.jsonl: line \(number) skipped: \(reason)"), "line \(number): \(run.stderr)")
            }
            let faces = try Self.table(root + "/out/faces.csv")
            #expect(faces.count == 2 && faces.allSatisfy { $0["person_id"] == "0" && $0["quality"] == "0.5" })
        }
    }

    @Test("--all-crops: an upright 150 px picture per face, and each person's best shot as person-<id>.jpg", .needsModels)
    func crops() throws {
        try TestSupport.withTemporaryFolder { root in
            // The astronaut turned 35 degrees counter-clockwise, and as she is.
            let turned = root + "/turned.png"
            try TestSupport.ffmpeg(["-i", TestSupport.astronaut, "-vf", "rotate=-35*PI/180:fillcolor=gray", turned])
            let run = Self.group(["--output", root + "/out", "--all-crops", turned, TestSupport.astronaut])
            #expect(run.status == 0, "\(run.stderr)")
            let faces = try Self.table(root + "/out/faces.csv")
            try #require(faces.count == 2)
            #expect(abs(Double(faces[0]["head_euler_z"]!)! - 35) < 10, "the turn is read: \(faces[0])")
            let crops = root + "/out/crops/"
            #expect(try FileManager.default.contentsOfDirectory(atPath: crops).sorted() == ["face-0.jpg", "face-1.jpg", "person-0.jpg"])
            let detector = try FaceDetector(models: ModelLocator(directory: TestSupport.modelDirectory))
            for name in ["face-0.jpg", "face-1.jpg"] {
                let chip = try FaceImage(contentsOfFile: crops + name)
                #expect(chip.width == 150 && chip.height == 150)
                let found = try detector.process(chip)
                try #require(found.count == 1, "\(name)")
                #expect(abs(found[0].headEulerAngleZ) < 8, "\(name) is upright: roll \(found[0].headEulerAngleZ)")
                // Centred, and the face about two thirds of the picture (padding 0.25 each side).
                #expect(abs(found[0].frame.midX - 75) < 12 && found[0].frame.height > 70, "\(found[0].frame)")
            }
            let best = Double(faces[0]["quality"]!)! >= Double(faces[1]["quality"]!)! ? 0 : 1
            #expect(
                FileManager.default.contentsEqual(atPath: crops + "person-0.jpg", andPath: crops + "face-\(best).jpg"))
        }
    }

    @Test("a missing --output, a bad threshold and --contours are usage errors")
    func usage() {
        #expect(Self.group([TestSupport.astronaut]).status == 64)
        #expect(Self.group(["--output", "/tmp/x", "--threshold", "0", TestSupport.astronaut]).status == 64)
        #expect(Self.group(["--output", "/tmp/x", "--neighbours", "0", TestSupport.astronaut]).status == 64)
        #expect(Self.group(["--output", "/tmp/x", "--contours", TestSupport.astronaut]).status == 64)
        #expect(Self.group(["--output", "/tmp/x"]).status == 64)
    }
}
