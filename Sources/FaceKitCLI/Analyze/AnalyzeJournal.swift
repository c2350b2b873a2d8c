import Foundation
import FaceKitArguments

/// The lines `facekit analyze --output FILE` keeps in `FILE.journal` (see ``ResumableFileOutput``),
/// from which `--resume` knows where an interrupted run stopped and whether it was the same run.
///
/// Each line is one JSON object, keys sorted. The first describes the run: the options that
/// shape the output (not `--jobs`, `--quiet` or `--model-dir`), the paths, the facekit version
/// and, with `--shard`, how many inputs the whole collection had (`collection_size`). Each later line is a
/// checkpoint, written once the partial file is synced up to `bytes`: the first `inputs` inputs
/// of the run (in walk order, within the shard) are done and written, with their tally and a
/// digest of their paths, which a resumed run recomputes to check that it skips the same files.
/// The last checkpoint of a finished run has `complete` set.
///
/// ```
/// {"journal":"facekit analyze","settings":{"classify":false,...,"paths":["photos/"]},"version":1}
/// {"bytes":48210,"complete":false,"inputs":120,"last_path":"photos/b.jpg",
///  "paths_digest":"8c3f0e1d2a4b5c6d","tally":{"faces":340,"failures":3,"files":120}}
/// ```
enum AnalyzeJournal {
    /// What makes two runs write the same output.
    struct Settings: Codable, Equatable, Sendable {
        var facekitVersion: String
        var format: String
        var mode: String
        var landmarks: Bool
        var contours: Bool
        var classify: Bool
        var minFaceSize: Double
        /// Absent in journals written before detection scores existed (such a run is not resumed:
        /// it differs from every run now).
        var minDetectionScore: Double?
        var maxPixels: Int
        var shard: String?
        var paths: [String]

        /// The settings as the command line gives them, one phrase each: `--format csv`,
        /// `--landmarks` or `no --landmarks`, `the paths photos/, extra.jpg`.
        var phrases: [(key: String, text: String)] {
            func flag(_ name: String, _ on: Bool) -> String { on ? "--\(name)" : "no --\(name)" }
            return [
                ("version", "facekit \(facekitVersion)"),
                ("format", "--format \(format)"),
                ("mode", "--mode \(mode)"),
                ("landmarks", flag("landmarks", landmarks)),
                ("contours", flag("contours", contours)),
                ("classify", flag("classify", classify)),
                ("min-face-size", "--min-face-size \(minFaceSize.defaultValueDescription)"),
                (
                    "min-detection-score",
                    minDetectionScore.map { "--min-detection-score \($0.defaultValueDescription)" } ?? "no detection scores"
                ),
                ("max-pixels", "--max-pixels \(maxPixels)"),
                ("shard", shard.map { "--shard \($0)" } ?? "no --shard"),
                ("paths", "the paths " + paths.joined(separator: ", ")),
            ]
        }

        /// `(interrupted run, this run)` phrases of the settings that differ.
        func differences(from interrupted: Settings) -> (then: [String], now: [String]) {
            var then: [String] = []
            var now: [String] = []
            for (old, new) in zip(interrupted.phrases, phrases) where old.text != new.text {
                then.append(old.text)
                now.append(new.text)
            }
            return (then, now)
        }
    }

    /// The first line.
    struct Header: Codable, Equatable, Sendable {
        var journal = "facekit analyze"
        var version = 1
        var settings: Settings
        /// With `--shard`, the number of inputs in the whole collection, which fixes the cut.
        var collectionSize: Int?
    }

    /// Every later line.
    struct Checkpoint: Codable, Equatable, Sendable {
        /// The inputs done, counted from the first of the run (of the shard).
        var inputs: Int
        /// The partial file's size once their rows are written.
        var bytes: UInt64
        var tally: CollectionTally
        var pathsDigest: PathsDigest
        /// The path of the last input done, for messages.
        var lastPath: String?
        /// Set on the last checkpoint, once every input is done.
        var complete = false
    }

    /// What a journal holds: nothing usable, or a run with its last good checkpoint.
    enum Contents: Equatable {
        /// Empty, or a first line that is not a header (torn, or not a journal at all).
        case none
        /// The header, the last checkpoint before any damaged line, and the journal's length up
        /// to that checkpoint (or to the header when there is none).
        case run(Header, Checkpoint?, validLength: UInt64)
    }

    static func line<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain structs cannot fail.
        return String(decoding: try! encoder.encode(value), as: UTF8.self)
    }

    static func decode<Value: Decodable>(_ type: Value.Type, _ line: String) -> Value? {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try? decoder.decode(type, from: Data(line.utf8))
    }

    /// Reads the lines of a journal; lines after a damaged one are ignored.
    static func contents(_ lines: [ResumableFileOutput.JournalLine]) -> Contents {
        guard let first = lines.first, let header = decode(Header.self, first.text),
            header.journal == "facekit analyze", header.version == 1
        else { return .none }
        var last: Checkpoint?
        var validLength = first.end
        for line in lines.dropFirst() {
            guard let checkpoint = decode(Checkpoint.self, line.text) else { break }
            last = checkpoint
            validLength = line.end
        }
        return .run(header, last, validLength: validLength)
    }
}
