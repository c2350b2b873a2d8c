import Testing

@testable import FaceKitCLI

@Suite("AnalyzeJournal")
struct AnalyzeJournalTests {
    static let settings = AnalyzeJournal.Settings(
        facekitVersion: "0.1.0", format: "csv", mode: "fast", landmarks: false, contours: false, classify: true,
        minFaceSize: 0.1, minDetectionScore: 0.85, maxPixels: 100_000_000, shard: nil, paths: ["photos/", "a,b.jpg"])

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

    @Test("the last good checkpoint counts; a damaged line and everything after it do not")
    func lastGoodCheckpoint() {
        let header = AnalyzeJournal.line(AnalyzeJournal.Header(settings: Self.settings))
        let one = AnalyzeJournal.line(Self.checkpoint(1))
        let two = AnalyzeJournal.line(Self.checkpoint(2))
        let lines = Self.lines([header, one, two, "{\"bytes\":3", AnalyzeJournal.line(Self.checkpoint(4))])
        #expect(
            AnalyzeJournal.contents(lines)
                == .run(AnalyzeJournal.Header(settings: Self.settings), Self.checkpoint(2), validLength: lines[2].end))
        #expect(
            AnalyzeJournal.contents(Self.lines([header]))
                == .run(AnalyzeJournal.Header(settings: Self.settings), nil, validLength: UInt64(header.utf8.count + 1))
        )
        #expect(AnalyzeJournal.contents([]) == .none)
        #expect(AnalyzeJournal.contents(Self.lines(["not json", one])) == .none)
        #expect(AnalyzeJournal.contents(Self.lines([#"{"journal":"something else","version":1}"#])) == .none)
    }

    @Test("a checkpoint with a count below 0, or a header with a negative collection size, is damaged")
    func negativeCounts() {
        let header = AnalyzeJournal.line(AnalyzeJournal.Header(settings: Self.settings))
        let one = AnalyzeJournal.line(Self.checkpoint(1))
        for negative in [
            one.replacingOccurrences(of: #""inputs":1"#, with: #""inputs":-5"#),
            one.replacingOccurrences(of: #""files":1"#, with: #""files":-1"#),
        ] {
            #expect(negative != one)
            let lines = Self.lines([header, one, negative])
            #expect(
                AnalyzeJournal.contents(lines)
                    == .run(AnalyzeJournal.Header(settings: Self.settings), Self.checkpoint(1), validLength: lines[1].end))
        }
        let sized = AnalyzeJournal.line(AnalyzeJournal.Header(settings: Self.settings, collectionSize: 12))
        let negativeSize = sized.replacingOccurrences(of: #""collection_size":12"#, with: #""collection_size":-12"#)
        #expect(negativeSize != sized)
        #expect(AnalyzeJournal.contents(Self.lines([negativeSize, one])) == .none)
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
