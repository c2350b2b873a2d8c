import FaceKit
import FaceKitArguments
import FaceKitDatasets
import Foundation

/// Whether every face a person would point at is found: group photos turned by any angle,
/// closed- and open-eyed faces, portraits, close-ups cut by the frame (``CoverageSets``).
///
/// The detector runs once per photo as FaceKit does at `--score`, but keeps every face from the
/// second look's floor (0.3) up, each looked at upright and by dlib's CNN (``CNNFaceCheck``);
/// every detection is kept with its scores, so that other thresholds and rules can be scored
/// afterwards without running it again (`--records` keeps them in a file). How far the search goes (the close-up and turned passes
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
            .option("hog", \.hog, valueName: "margin", help: "Print the tables with dlib's HOG detector as the third look, at this margin (not in FaceKit: a study; runs it beside the CNN)."),
            .option("cnn", \.cnn, valueName: "margin", help: "Print the tables with the CNN check at this margin (default: FaceKit's, CNNFaceCheck.minimumConfidence; none with --before)."),
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
    /// The HOG check's margin in the tables' rule (`--hog`): a study, which also records HOG's margins.
    var hog: Double?
    /// The CNN check's margin in the tables' rule (`--cnn`), or `nil` for FaceKit's.
    var cnn: Double?
    /// The check of the tables' rule: `--hog`'s or `--cnn`'s (not both: ``validate()``), else
    /// FaceKit's (none with `--before`).
    var check: Rule.Check? {
        if let hog { return Rule.Check(look: .hog, margin: hog) }
        if let cnn { return Rule.Check(look: .cnn, margin: cnn) }
        return before ? nil : Rule.Check(look: .cnn, margin: CNNFaceCheck.minimumConfidence)
    }

    func validate() throws(CommandError) {
        try data.validateArgument()
        if hog != nil && cnn != nil { throw CommandError("--hog and --cnn: the tables take one check; give one") }
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
        /// The 68 points, YuNet's five keypoints and the box, in the photo's pixels (empty when
        /// read from records kept without them).
        var points: [CGPoint] = []
        var keypoints: [CGPoint] = []
        var frame: CGRect = .zero
        /// The third looks' margins, HOG's then the CNN's (``Rule/Look``): the CNN's is FaceKit's
        /// (``CNNFaceCheck``), HOG's a study's (``hogMargin(of:in:seedBox:shape:)``), NaN unless
        /// `--hog` asked for it; HOG's alone in older records.
        var looks: [Double] = []
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
        let hogDetector = hog == nil ? nil : try NativeDlibDetector(kind: .hog, modelPath: nil)
        var records: [Record] = []
        for (index, sample) in samples.enumerated() {
            if index % 500 == 0 { progress("\(index) of \(samples.count) photos") }
            let photo = try sample.load()
            let (analysed, seconds) = try timed { try detector.examine(photo.image, search: search, lookingAtAll: !before) }
            let detections = try analysed.map { pair in
                let hogMargin = try hogDetector.map {
                    try Self.hogMargin(of: $0, in: photo.image, seedBox: pair.seedBox, shape: pair.shape)
                }
                let looks = [hogMargin ?? .nan, pair.checkConfidence ?? CNNFaceCheck.floor]
                return Detection(
                    score: pair.searchScore, upright: pair.uprightScore ?? 0, turned: pair.turned, diagonal: pair.diagonal,
                    displaced: pair.displacedScore ?? 0,
                    plausible: pair.shape.isPlausible, faces: photo.candidateFaces(of: pair.face.frame),
                    eyeProbabilities: [pair.face.leftEyeOpenProbability, pair.face.rightEyeOpenProbability]
                        .compactMap { $0 }.count,
                    points: pair.shape.points, keypoints: pair.keypoints, frame: pair.face.frame, looks: looks)
            }
            records.append(Record(sample: sample, faces: photo.faces.count, detections: detections, seconds: seconds))
        }
        return records
    }

    /// dlib's HOG frontal face detector (FaceKit's detector before YuNet; its edge templates do not
    /// depend on the eyes being open) studied as the third look in the CNN's stead: its best margin
    /// in the CNN check's view of the face, as the CNN's (``CNNFaceCheck/confidence(in:seedBox:roll:detect:)``),
    /// or ``CNNFaceCheck/floor`` when there is none (or the 68 points give no eye line).
    static func hogMargin(of detector: NativeDlibDetector, in image: FaceImage, seedBox: CGRect, shape: FaceShape) throws -> Double {
        guard let axis = shape.eyeAxis else { return CNNFaceCheck.floor }
        return try CNNFaceCheck.confidence(in: image, seedBox: seedBox, roll: atan2(Double(axis.y), Double(axis.x))) {
            view throws(FaceKitError) in
            try detector.detect(in: view, scale: 1, threshold: CNNFaceCheck.floor).map { ($0.box, $0.score) }
        }
    }

    /// A rule that keeps a detection: a score at least `threshold`, the score being YuNet's, its
    /// score seen upright, or their mean or maximum; or, with a `check`, a dlib detector's margin at
    /// least the check's (for a diagonal detection, its own, not the displaced one's): FaceKit's
    /// third look (the CNN, ``CNNFaceCheck``), or a study's (HOG).
    struct Rule: Equatable {
        enum Score: String, CaseIterable { case yunet, upright, mean, maximum }
        /// The dlib detector of a check, by its place in ``Detection/looks``.
        enum Look: Int, CaseIterable {
            case hog = 0, cnn = 1

            var title: String { self == .hog ? "HOG" : "CNN" }
            /// The margins leave-one-set-out tries, by 0.1: HOG's -1 ... 1, the CNN's -1 ... 2
            /// (its confidences reach past 1).
            var margins: [Double] { (0...(self == .hog ? 20 : 30)).map { (Double($0) - 10) / 10 } }
            /// The margins of the grid printed beside the thresholds.
            var shownMargins: [Double] { self == .hog ? [-0.5, -0.4, -0.2, 0] : [0, 0.3, 0.4, 0.5] }
        }
        struct Check: Equatable {
            var look: Look
            var margin: Double
        }
        var score: Score
        var threshold: Double
        var check: Check? = nil

        func keeps(_ detection: Detection) -> Bool {
            if value(detection) >= threshold { return true }
            guard let check, detection.looks.indices.contains(check.look.rawValue) else { return false }
            return detection.looks[check.look.rawValue] >= check.margin  // false for NaN: not recorded
        }

        func value(_ detection: Detection) -> Double {
                switch score {
                case .yunet: detection.score
                case .upright: detection.upright
                case .mean: (detection.score + detection.upright) / 2
                case .maximum:
                    detection.diagonal ? max(detection.upright, detection.displaced) : max(detection.score, detection.upright)
                }
        }

        var name: String {
            "\(score.rawValue) >= \(fixed(threshold, 2))"
                + (check.map { " or \($0.look.title) >= \(fixed($0.margin, 2))" } ?? "")
        }
    }

    /// Faces, found, false detections and eye probabilities of `records` under `rule`.
    struct Counts {
        var faces = 0, found = 0, falsePositives = 0, photos = 0, photosWithFace = 0, eyesPresent = 0
        var recall: Double { faces == 0 ? .nan : Double(found) / Double(faces) }
        var precision: Double { found + falsePositives == 0 ? .nan : Double(found) / Double(found + falsePositives) }
        var f1: Double { 2 * recall * precision / (recall + precision) }

        mutating func add(_ other: Counts) {
            faces += other.faces
            found += other.found
            falsePositives += other.falsePositives
            photos += other.photos
            photosWithFace += other.photosWithFace
            eyesPresent += other.eyesPresent
        }

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
        let rule = Rule(score: before ? .yunet : ruleScore, threshold: score, check: check)
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
        // The looks recorded: the CNN's always, HOG's with --hog (NaN otherwise).
        let looks = Rule.Look.allCases.filter { look in
            records.contains { $0.detections.contains { $0.looks.indices.contains(look.rawValue) && !$0.looks[look.rawValue].isNaN } }
        }
        let checkRules = looks.flatMap { look in
            Self.checkThresholds.flatMap { threshold in
                look.margins.map { Rule(score: .maximum, threshold: threshold, check: Rule.Check(look: look, margin: $0)) }
            }
        }
        for look in looks {
            print("\nWith the \(look.title) check (maximum >= threshold, or \(look.title)'s margin at least the margin; a few of the grid):\n")
            printTable(
                ["rule"] + Self.header + ["F1"],
                checkRules.filter {
                    $0.check!.look == look && [0.8, 0.82, 0.84, 0.86].contains($0.threshold) && look.shownMargins.contains($0.check!.margin)
                }.map { rule in
                    let counts = Counts(records, rule)
                    return row([rule.name], counts) + [fixed(counts.f1, 4)]
                })
        }
        let rules = Rule.Score.allCases.flatMap { kind in thresholds.map { Rule(score: kind, threshold: $0) } } + checkRules
        // Each set's counts under each rule, once.
        let bySet = Dictionary(grouping: records, by: \.sample.set)
        var counts: [String: [Counts]] = [:]
        for set in sets { counts[set] = rules.map { Counts(bySet[set] ?? [], $0) } }
        func others(_ left: String, _ rule: Int) -> Counts {
            var total = Counts([], rules[rule])
            for set in sets where set != left { total.add(counts[set]![rule]) }
            return total
        }
        /// The score rule FaceKit had before its third look.
        let scoreAlone = rules.firstIndex(of: Rule(score: .maximum, threshold: 0.8))!
        let scoreRules = rules.indices.filter { rules[$0].check == nil }
        /// Ties go to the threshold nearer FaceKit's default.
        func nearer(_ a: Int, _ b: Int) -> Bool {
            let chosen = FaceDetectorOptions.defaultMinDetectionScore
            return abs(rules[a].threshold - chosen) > abs(rules[b].threshold - chosen)
        }
        func bestF1(_ indices: [Int]) -> (String) -> Int {
            { left in indices.max { (others(left, $0).f1, 0) < (others(left, $1).f1, nearer($0, $1) ? 1 : 0) }! }
        }
        let criteria: [(title: String, leftOut: [String], choose: (String) -> Int)] = looks.flatMap { look in
            let indices = rules.indices.filter { rules[$0].check?.look == look }
            let title = look == .cnn ? "FaceKit's: the rule with the CNN check" : "a study (not in FaceKit): the rule with the HOG check"
            return [
                ("\(title) with the best F1 on the other sets", sets, bestF1(indices)),
                ("a study: the rule with the \(look.title) check that finds the most faces on the other sets with no more false detections there than maximum >= 0.80 alone", sets, { left in
                    let limit = others(left, scoreAlone).falsePositives
                    return indices.filter { others(left, $0).falsePositives <= limit }.max {
                        let (a, b) = (others(left, $0), others(left, $1))
                        return (a.found, -a.falsePositives, 0) < (b.found, -b.falsePositives, nearer($0, $1) ? 1 : 0)
                    }!
                }),
            ]
        } + [("the score rule alone (FaceKit's before the CNN check) with the best F1 on the other sets", sets.filter { $0 != "no face" }, bestF1(scoreRules))]
        for (title, leftOut, choose) in criteria {
            print("\nLeave one set out, \(title), reported on the set left out:\n")
            var total = Counts([], rules[0])
            var eyes: [CoverageSets.EyeState: Counts] = [.closed: Counts([], rules[0]), .open: Counts([], rules[0])]
            printTable(
                ["set left out", "rule chosen on the others"] + Self.header,
                leftOut.map { left in
                    let best = rules[choose(left)]
                    let held = bySet[left] ?? []
                    let heldCounts = Counts(held, best)
                    total.add(heldCounts)
                    for eye in [CoverageSets.EyeState.closed, .open] {
                        eyes[eye]!.add(Counts(held.filter { $0.sample.eyes == eye }, best))
                    }
                    return row([left, best.name], heldCounts)
                } + [row(["all, each set by the rule chosen without it", ""], total)]
                    + [CoverageSets.EyeState.closed, .open].map { row(["\($0.rawValue) eyes, held out", ""], eyes[$0]!) })
        }
    }

    /// The maximum's thresholds beside either check that leave-one-set-out tries: 0.70 ... 0.90
    /// by 0.01 (the checks' margins: ``Rule/Look/margins``).
    static let checkThresholds = (70...90).map { Double($0) / 100 }

    /// Keeps `records` as CSV: one line per photo (`photo,<index>,<faces>,<seconds>`) followed by
    /// one per detection (`detection,<score>,<upright>,<plausible>,<faces, ;-separated>,<eye
    /// probabilities>,<turned>,<diagonal>,<displaced>,<geometry>,<HOG's margin;the CNN's>`;
    /// ``geometryField(_:)``; HOG's NaN, written `–`, unless `--hog` asked for it).
    static func save(_ records: [Record], to path: String) throws {
        var lines: [String] = []
        for (index, record) in records.enumerated() {
            lines.append("photo,\(index),\(record.faces),\(record.seconds),\(record.sample.name),\(record.sample.set)")
            for d in record.detections {
                lines.append(
                    "detection,\(d.score),\(d.upright),\(d.plausible ? 1 : 0),"
                        + "\(d.faces.map(String.init).joined(separator: ";")),\(d.eyeProbabilities),\(d.turned ? 1 : 0),\(d.diagonal ? 1 : 0),\(d.displaced),"
                        + Self.geometryField(d) + "," + d.looks.map { fixed($0, 4) }.joined(separator: ";"))
            }
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// A detection's 68 points, five keypoints and box (x, y, width, height), `;`-separated, to
    /// 0.1 px; empty when it has none.
    static func geometryField(_ d: Detection) -> String {
        guard d.points.count == FaceShape.pointCount, d.keypoints.count == 5 else { return "" }
        let values = (d.points + d.keypoints).flatMap { [$0.x, $0.y] } + [d.frame.minX, d.frame.minY, d.frame.width, d.frame.height]
        return values.map { fixed(Double($0), 1) }.joined(separator: ";")
    }

    /// Reads ``geometryField(_:)`` back into `d`.
    static func readGeometry(_ field: String, into d: inout Detection) {
        let v = field.split(separator: ";").compactMap { Double($0) }
        guard v.count == 2 * (FaceShape.pointCount + 5) + 4 else { return }
        let points = stride(from: 0, to: 2 * (FaceShape.pointCount + 5), by: 2).map { CGPoint(x: v[$0], y: v[$0 + 1]) }
        d.points = Array(points.prefix(FaceShape.pointCount))
        d.keypoints = Array(points.suffix(5))
        d.frame = CGRect(x: v[v.count - 4], y: v[v.count - 3], width: v[v.count - 2], height: v[v.count - 1])
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
                if fields.count > 10 {
                    records[records.count - 1].detections[records[records.count - 1].detections.count - 1].looks =
                        fields[10].split(separator: ";").map { Double($0) ?? .nan }
                }
                if fields.count > 9 { Self.readGeometry(fields[9], into: &records[records.count - 1].detections[records[records.count - 1].detections.count - 1]) }
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
