import Testing

@testable import FaceKitCLI

@Suite("AnalyzeJournal")
struct AnalyzeJournalTests {
    static let settings = AnalyzeJournal.Settings(
        CollectionSettings(
            facekitVersion: "0.1.0", format: "csv", mode: "fast", landmarks: false, classify: true, minFaceSize: 0.1,
            shard: nil, paths: ["photos/", "a,b.jpg"]),
        AnalyzeOwnSettings(contours: false, minDetectionScore: 0.85, orientation: .any, maxPixels: 100_000_000))

    static func checkpoint(_ inputs: Int, complete: Bool = false) -> AnalyzeJournal.Checkpoint {
        var digest = PathsDigest()
        for index in 0..<inputs { digest.add("photos/\(index).jpg") }
        return AnalyzeJournal.Checkpoint(
            inputs: inputs, bytes: UInt64(100 * inputs),
            tally: CollectionTally(files: inputs, faces: 2 * inputs, failures: 1),
            pathsDigest: digest, lastPath: inputs > 0 ? "photos/\(inputs - 1).jpg" : nil, complete: complete)
    }

    /// Journal lines as `ResumableFileOutput.journalLines()` gives them.
    static func lines(_ texts: [String]) -> [ResumableFileOutput.JournalLine] {
        var end: UInt64 = 0
        return texts.map { text in
            end += UInt64(text.utf8.count + 1)
            return ResumableFileOutput.JournalLine(text: text, end: end)
        }
    }

    @Test("each record is one line of JSON with sorted snake-case keys that reads back the same")
    func roundTrip() throws {
        let header = AnalyzeJournal.Header(settings: Self.settings, collectionSize: 12)
        let line = AnalyzeJournal.line(header)
        #expect(!line.contains("\n"))
        #expect(line.hasPrefix(#"{"collection_size":12,"journal":"facekit analyze","settings":{"classify":true,"#))
        #expect(line.contains(#""paths":["photos/","a,b.jpg"]"#))
        #expect(AnalyzeJournal.decode(AnalyzeJournal.Header.self, line) == header)
        let checkpoint = Self.checkpoint(3)
        #expect(AnalyzeJournal.decode(AnalyzeJournal.Checkpoint.self, AnalyzeJournal.line(checkpoint)) == checkpoint)
    }

    @Test("the last checkpoint counts; an empty journal reads as none, another command's or version's as that")
    func lastCheckpoint() throws {
        let header = AnalyzeJournal.line(AnalyzeJournal.Header(settings: Self.settings))
        let lines = Self.lines([header, AnalyzeJournal.line(Self.checkpoint(1)), AnalyzeJournal.line(Self.checkpoint(2))])
        #expect(
            try AnalyzeJournal.contents(lines, path: "j")
                == .run(AnalyzeJournal.Header(settings: Self.settings), Self.checkpoint(2), validLength: lines[2].end))
        #expect(
            try AnalyzeJournal.contents(Self.lines([header]), path: "j")
                == .run(AnalyzeJournal.Header(settings: Self.settings), nil, validLength: UInt64(header.utf8.count + 1))
        )
        #expect(try AnalyzeJournal.contents([], path: "j") == .none)
        #expect(
            try AnalyzeJournal.contents(Self.lines([#"{"journal":"something else","version":1}"#]), path: "j")
                == .otherJournal)
        #expect(
            try AnalyzeJournal.contents(Self.lines([#"{"journal":"facekit analyze","version":2}"#]), path: "j")
                == .otherJournal)
    }

    /// The line `AnalyzeJournal.contents` refuses in `texts`, and its reason.
    static func damage(_ texts: [String]) -> (line: Int, reason: String)? {
        do {
            _ = try AnalyzeJournal.contents(Self.lines(texts), path: "faces.csv.journal")
            return nil
        } catch {
            #expect(error.path == "faces.csv.journal")
            return (error.line, error.reason)
        }
    }

    @Test("a complete line no run writes is refused by its number, whatever comes after it")
    func damagedLines() {
        let header = AnalyzeJournal.line(AnalyzeJournal.Header(settings: Self.settings))
        let one = AnalyzeJournal.line(Self.checkpoint(1))
        let two = AnalyzeJournal.line(Self.checkpoint(2))
        let four = AnalyzeJournal.line(Self.checkpoint(4))
        let sized = AnalyzeJournal.line(AnalyzeJournal.Header(settings: Self.settings, collectionSize: 12))
        let negativeSize = sized.replacingOccurrences(of: #""collection_size":12"#, with: #""collection_size":-12"#)
        #expect(negativeSize != sized)
        let cases: [([String], Int, String)] = [
            ([header, one, two, #"{"bytes":3"#, four], 4, "not a checkpoint"),
            ([header, one, one.replacingOccurrences(of: #""inputs":1"#, with: #""inputs":-5"#)], 3, "a count below 0"),
            ([header, one.replacingOccurrences(of: #""files":1"#, with: #""files":-1"#)], 2, "a count below 0"),
            ([header, two, one], 3, "fewer inputs or bytes than line 2"),
            ([header, AnalyzeJournal.line(Self.checkpoint(2, complete: true)), four], 3,
             "a checkpoint after the one that completed the run"),
            (["not json", one], 1, "not the first line of a facekit journal"),
            ([#"{"journal":"facekit analyze","version":1,"settings":3}"#], 1,
             "a facekit analyze header this facekit cannot read, damaged or of another version"),
            ([negativeSize, one], 1, "a collection size below 0"),
            ([header, ""], 2, "not a checkpoint"),
        ]
        for (texts, line, reason) in cases {
            let found = Self.damage(texts)
            #expect(found?.line == line && found?.reason == reason, "\(texts): \(String(describing: found))")
        }
        let message = DamagedJournalLine(path: "faces.csv.journal", line: 4, reason: "not a checkpoint").description
        #expect(message.hasPrefix("faces.csv.journal: line 4 is damaged (not a checkpoint)"))
        #expect(message.contains("without --resume"))
    }

    @Test("differences name each option as written on the command line")
    func differences() {
        var other = Self.settings
        other.format = "jsonl"
        other.landmarks = true
        other.shard = "2/4"
        other.minDetectionScore = 0.5
        let (then, now) = other.differences(from: Self.settings)
        #expect(then == ["--format csv", "no --landmarks", "--min-detection-score 0.85", "no --shard"])
        #expect(now == ["--format jsonl", "--landmarks", "--min-detection-score 0.5", "--shard 2/4"])
        #expect(Self.settings.differences(from: Self.settings).then.isEmpty)
    }
}

@Suite("PathsDigest")
struct PathsDigestTests {
    @Test("the digest depends on every path and their order, not on where one path ends")
    func digest() {
        func digest(_ paths: [String]) -> PathsDigest {
            var digest = PathsDigest()
            for path in paths { digest.add(path) }
            return digest
        }
        #expect(digest(["a", "b"]) == digest(["a", "b"]))
        #expect(digest(["a", "b"]) != digest(["b", "a"]))
        #expect(digest(["ab"]) != digest(["a", "b"]))
        #expect(digest([]) == PathsDigest())
        #expect(digest([]).description == "cbf29ce484222325")
        #expect(digest(["a"]).description.count == 16)
    }
}
