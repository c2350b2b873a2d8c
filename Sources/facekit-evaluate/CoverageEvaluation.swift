import FaceKit
import FaceKitArguments
import FaceKitDatasets
import Foundation

/// Whether every face a person would point at is found: group photos turned by any angle,
/// closed- and open-eyed faces, portraits, close-ups cut by the frame (``CoverageSets``).
///
/// The detector runs once per photo as FaceKit does at `--score`, but keeps every face from the
/// second look's floor (0.3) up, each looked at upright; every detection is kept with both
/// scores, so that other thresholds and rules can be scored afterwards without running it again
/// (`--records` keeps them in a file). How far the search goes (the close-up and turned passes
/// run when the upright search finds no face at the minimum) is that of `--score`'s run, so the
/// sweep's other thresholds are approximate. The default threshold is then chosen by leave-one-set-out:
/// for each set, the threshold that does best on the other sets is reported on it.
struct CoverageEvaluation: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "coverage",
            abstract: "Faces found at any angle, in close-ups and with closed eyes, by set, angle and eye state.",
            discussion: """
                Runs the detector with the given orientation on the development photos turned, padded \
                and cut (CoverageSets), prints recall and precision at --score by set, angle, cut and \
                eye state, a sweep of thresholds, and the threshold chosen by leave-one-set-out. \
                --before measures the search FaceKit had before (upright, no close-up pass, score 0.85). \
                --write DIR writes the photos and their truth instead (scripts/make-detection-variants).
                """)
    }

    static var arguments: [ArgumentDefinition<Self>] {
        [
            DevelopmentData.argument(\.data),
            .option("score", \.chosenScore, valueName: "score", help: "The threshold the tables are printed at (default: FaceKit's, 0.85 with --before)."),
            .option("rule", \.ruleScore, valueName: "score", help: "Which score the tables threshold: yunet, upright, mean or maximum."),
            .flag("before", \.before, help: "Measure the search before turned and close-up passes (upright, score 0.85)."),
            .option("write", \.write, valueName: "dir", help: "Write the photos and truth.csv to this folder instead."),
            .option("records", \.recordsFile, valueName: "file", help: "Keep every detection in this CSV file, or read them from it when it exists (no detector run)."),
        ]
    }

    var data = DevelopmentData()
    var chosenScore: Double?
    /// The threshold of the tables: `--score`, or FaceKit's default now (0.85 before).
    var score: Double { chosenScore ?? (before ? 0.85 : FaceDetectorOptions.defaultMinDetectionScore) }
    var ruleScore = Rule.Score.maximum
    var before = false
    var write: String?
    var recordsFile: String?

    func validate() throws(CommandError) {
        try data.validateArgument()
    }

    func run(_ context: CommandContext) throws -> ExitStatus {
        let sets = CoverageSets(data: data, reference: try Self.referenceDetector())
        if let write {
            try Self.write(sets.samples(), to: URL(fileURLWithPath: write))
            return .success
        }
        let samples = try sets.samples()
        let records: [Record]
        if let recordsFile, FileManager.default.fileExists(atPath: recordsFile) {
            records = try Self.read(recordsFile, samples: samples)
        } else {
            records = try measure(samples)
            if let recordsFile { try Self.save(records, to: recordsFile) }
        }
        report(records)
        return .success
    }

    /// FaceKit upright at score 0.5 with landmarks: where GENKI's unlabelled faces are.
    static func referenceDetector() throws -> FaceDetector {
        var options = FaceDetectorOptions()
        options.landmarkMode = .all
        options.orientationMode = .upright
        options.minDetectionScore = 0.5
        return try FaceDetector(options: options, models: DevelopmentData.models)
    }

    /// One detection: the search's score and the upright look's, whether its 68 points are
    /// plausible, which faces it could be, and how many eye-open probabilities it has.
    struct Detection {
        var score: Double
        /// YuNet's score for the face seen upright (``FaceFinder/uprightScore``); 0 if none.
        var upright: Double
        /// Whether a turned pass found it.
        var turned: Bool
        /// Whether its detection came from the diagonal view: FaceKit keeps it on its upright look alone.
        var diagonal: Bool = false
        /// For a diagonal detection, the best score of the detection it displaced, which FaceKit
        /// examines in its stead when the diagonal one's upright look fails; 0 if none.
        var displaced: Double = 0
        var plausible: Bool
        /// The faces this detection could be (``PhotoVariant/matches(_:)``'s test), nearest first;
        /// which one it is depends on which other detections a rule keeps.
        var faces: [Int]
        var eyeProbabilities: Int
    }

    struct Record {
        var sample: CoverageSets.Sample
        var faces: Int
        var detections: [Detection]
        var seconds: Double
    }

    func measure(_ samples: [CoverageSets.Sample]) throws -> [Record] {
        var options = FaceDetectorOptions()
        options.classificationMode = .all
        // The product's threshold (it decides how far the search goes); every face from the
        // second look's floor up is recorded (`lookingAtAll`).
        options.minDetectionScore = score
        options.orientationMode = before ? .upright : .any
        let detector = try FaceDetector(options: options, models: DevelopmentData.models)
        let search = before ? FaceSearch(orientation: .upright, closeUps: false, secondLook: false) : nil
        var records: [Record] = []
        for (index, sample) in samples.enumerated() {
            if index % 500 == 0 { progress("\(index) of \(samples.count) photos") }
            let photo = try sample.load()
            let (analysed, seconds) = try timed { try detector.examine(photo.image, search: search, lookingAtAll: !before) }
            let detections = analysed.map { pair in
                Detection(
                    score: pair.searchScore, upright: pair.uprightScore ?? 0, turned: pair.turned, diagonal: pair.diagonal,
                    displaced: pair.displacedScore ?? 0,
                    plausible: pair.shape.isPlausible, faces: photo.candidateFaces(of: pair.face.frame),
                    eyeProbabilities: [pair.face.leftEyeOpenProbability, pair.face.rightEyeOpenProbability]
                        .compactMap { $0 }.count)
            }
            records.append(Record(sample: sample, faces: photo.faces.count, detections: detections, seconds: seconds))
        }
        return records
    }

    /// A rule that keeps a detection: a score at least `threshold`, the score being YuNet's, its
    /// score seen upright, or their mean or maximum.
    struct Rule: Equatable {
        enum Score: String, CaseIterable { case yunet, upright, mean, maximum }
        var score: Score
        var threshold: Double

        func keeps(_ detection: Detection) -> Bool { value(detection) >= threshold }

        func value(_ detection: Detection) -> Double {
                switch score {
                case .yunet: detection.score
                case .upright: detection.upright
                case .mean: (detection.score + detection.upright) / 2
                case .maximum:
                    detection.diagonal ? max(detection.upright, detection.displaced) : max(detection.score, detection.upright)
                }
        }

        var name: String { "\(score.rawValue) >= \(fixed(threshold, 2))" }
    }

    /// Faces, found, false detections and eye probabilities of `records` under `rule`.
    struct Counts {
        var faces = 0, found = 0, falsePositives = 0, photos = 0, photosWithFace = 0, eyesPresent = 0
        var recall: Double { faces == 0 ? .nan : Double(found) / Double(faces) }
        var precision: Double { found + falsePositives == 0 ? .nan : Double(found) / Double(found + falsePositives) }
        var f1: Double { 2 * recall * precision / (recall + precision) }

        init(_ records: [Record], _ rule: Rule) {
            for record in records {
                let kept = record.detections.filter(rule.keeps)
                let hits = CoverageEvaluation.hits(kept, rule)
                faces += record.faces
                found += hits.count
                falsePositives += kept.count - hits.count
                photos += 1
                photosWithFace += kept.isEmpty ? 0 : 1
                eyesPresent += hits.filter { $0.eyeProbabilities > 0 }.count
            }
        }
    }

    /// The detections of `kept` that find a face: the best first (by the rule's score) takes the
    /// nearest face not yet taken, as detection benchmarks match.
    static func hits(_ kept: [Detection], _ rule: Rule) -> [Detection] {
        var taken = Set<Int>()
        var hits: [Detection] = []
        for detection in kept.sorted(by: { rule.value($0) > rule.value($1) }) {
            if let face = detection.faces.first(where: { !taken.contains($0) }) {
                taken.insert(face)
                hits.append(detection)
            }
        }
        return hits
    }

    func row(_ label: [String], _ counts: Counts) -> [String] {
        label + [
            "\(counts.photos)", "\(counts.faces)", "\(counts.found)", fixed(counts.recall, 3), "\(counts.falsePositives)",
            fixed(counts.precision, 3),
        ]
    }

    static let header = ["photos", "faces", "found", "recall", "false", "precision"]

    func report(_ records: [Record]) {
        let rule = Rule(score: before ? .yunet : ruleScore, threshold: score)
        print("Rule: \(rule.name)\(before ? " (before: upright, no close-up pass)" : "")\n")
        let sets = CoverageSets.setNames.filter { name in records.contains { $0.sample.set == name } }
        printTable(
            ["set"] + Self.header + ["eye probabilities present"],
            sets.map { set in
                let counts = Counts(records.filter { $0.sample.set == set }, rule)
                return row([set], counts) + [fixed(Double(counts.eyesPresent) / Double(max(1, counts.found)), 3)]
            } + [row(["all"], Counts(records, rule)) + [""]])
        print("\nBy angle (all sets with faces):\n")
        let angles = CoverageSets.groupAngles
        printTable(
            ["angle"] + Self.header,
            angles.map { angle in row(["\(angle)"], Counts(records.filter { $0.sample.angle == angle && $0.faces > 0 }, rule)) })
        print("\nGroup photos by angle (dlib-faces and CompreFace):\n")
        printTable(
            ["angle"] + Self.header,
            angles.map { angle in
                row(["\(angle)"], Counts(records.filter { $0.sample.angle == angle && $0.sample.set.hasPrefix("dlib-faces") || $0.sample.angle == angle && $0.sample.set == "CompreFace" }, rule))
            })
        print("\nEye state (CEW closed against open-faces):\n")
        printTable(
            ["eyes", "angles"] + Self.header,
            [CoverageSets.EyeState.closed, .open].flatMap { eyes in
                [("upright", [0]), ("turned", CoverageSets.turnedAngles)].map { label, angles in
                    row([eyes.rawValue, label], Counts(records.filter { $0.sample.eyes == eyes && angles.contains($0.sample.angle) }, rule))
                }
            })
        print("\nClose-ups by cut:\n")
        printTable(
            ["cut"] + Self.header,
            ["fill", "larger", "eyes-nose", "half"].map { cut in
                row([cut], Counts(records.filter { $0.sample.cut == cut }, rule))
            })
        guard !before else { return }
        print("\nThreshold sweep (all sets; F1 over faces):\n")
        let thresholds = stride(from: FaceSearch.secondLookFloor, through: 0.9, by: 0.05).map { ($0 * 100).rounded() / 100 }
        printTable(
            ["rule"] + Self.header + ["F1"],
            Rule.Score.allCases.flatMap { kind in
                thresholds.map { threshold in
                    let counts = Counts(records, Rule(score: kind, threshold: threshold))
                    return row([Rule(score: kind, threshold: threshold).name], counts) + [fixed(counts.f1, 4)]
                }
            })
        print("\nLeave one set out (the rule with the best F1 on the other sets, reported on the set left out):\n")
        let rules = Rule.Score.allCases.flatMap { kind in thresholds.map { Rule(score: kind, threshold: $0) } }
        printTable(
            ["set left out", "rule chosen on the others"] + Self.header,
            sets.filter { $0 != "no face" }.map { left in
                let others = records.filter { $0.sample.set != left }
                let best = rules.max { Counts(others, $0).f1 < Counts(others, $1).f1 }!
                return row([left, best.name], Counts(records.filter { $0.sample.set == left }, best))
            })
    }

    /// Keeps `records` as CSV: one line per photo (`photo,<index>,<faces>,<seconds>`) followed by
    /// one per detection (`detection,<score>,<upright>,<plausible>,<faces, ;-separated>,<eye
    /// probabilities>,<turned>,<diagonal>,<displaced>`).
    static func save(_ records: [Record], to path: String) throws {
        var lines: [String] = []
        for (index, record) in records.enumerated() {
            lines.append("photo,\(index),\(record.faces),\(record.seconds),\(record.sample.name),\(record.sample.set)")
            for d in record.detections {
                lines.append(
                    "detection,\(d.score),\(d.upright),\(d.plausible ? 1 : 0),"
                        + "\(d.faces.map(String.init).joined(separator: ";")),\(d.eyeProbabilities),\(d.turned ? 1 : 0),\(d.diagonal ? 1 : 0),\(d.displaced)")
            }
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Records kept by ``save(_:to:)`` for these `samples` (the same sets, in the same order).
    static func read(_ path: String, samples: [CoverageSets.Sample]) throws -> [Record] {
        var records: [Record] = []
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if fields[0] == "photo", let index = Int(fields[1]), index < samples.count, samples[index].name == fields[4] {
                records.append(Record(sample: samples[index], faces: Int(fields[2])!, detections: [], seconds: Double(fields[3])!))
            } else if fields[0] == "detection", !records.isEmpty {
                records[records.count - 1].detections.append(
                    Detection(
                        score: Double(fields[1])!, upright: Double(fields[2])!, turned: fields[6] == "1",
                        diagonal: fields.count > 7 && fields[7] == "1",
                        displaced: fields.count > 8 ? Double(fields[8]) ?? 0 : 0,
                        plausible: fields[3] == "1", faces: fields[4].split(separator: ";").compactMap { Int($0) },
                        eyeProbabilities: Int(fields[5])!))
            } else {
                throw CommandError("\(path) does not hold these samples' records (line: \(line.prefix(80)))")
            }
        }
        return records
    }

    /// Writes every sample as a PNG named after its source and change, and `truth.csv` (file, set,
    /// angle, cut, eyes, face, x, y, size) beside them.
    static func write(_ samples: [CoverageSets.Sample], to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var lines = ["file,set,angle,cut,eyes,face,x,y,size"]
        for (index, sample) in samples.enumerated() {
            if index % 500 == 0 { progress("\(index) of \(samples.count) photos") }
            let photo = try sample.load()
            let folderName = sample.set.replacingOccurrences(of: " ", with: "-")
            let file = "\(folderName)/\(sample.name).png"
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(folderName), withIntermediateDirectories: true)
            try photo.image.encoded(fileExtension: "png").write(to: folder.appendingPathComponent(file))
            for (face, truth) in photo.faces.enumerated() {
                lines.append(
                    "\(file),\(sample.set),\(sample.angle),\(sample.cut),\(sample.eyes?.rawValue ?? ""),\(face),"
                        + "\(fixed(Double(truth.point.x), 1)),\(fixed(Double(truth.point.y), 1)),\(truth.size.map { fixed($0, 1) } ?? "")")
            }
            if photo.faces.isEmpty {
                lines.append("\(file),\(sample.set),\(sample.angle),\(sample.cut),\(sample.eyes?.rawValue ?? ""),,,,")
            }
        }
        try (lines.joined(separator: "\n") + "\n").write(
            to: folder.appendingPathComponent("truth.csv"), atomically: true, encoding: .utf8)
    }
}

extension CoverageEvaluation.Rule.Score: ExpressibleByArgument {}
