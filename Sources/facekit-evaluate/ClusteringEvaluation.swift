import FaceKit
import FaceKitArguments
import FaceKitDatasets
import Foundation

/// How well `facekit group` puts the faces of one person together and keeps people apart: every
/// face of every development photo with a known identity (photos/identities: train/<person>/,
/// and test/, whose files hold one or more named people, left to right; and the Hamilton cast's
/// reference photos), grouped as `group` groups them (``FaceClustering`` over the descriptors of
/// the default detector, two faces of one photo kept apart) at several thresholds. A face of someone unnamed (the child in
/// obama_and_biden.jpg) is a person of its own.
struct ClusteringEvaluation: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "clustering",
            abstract: "Pairwise and BCubed scores of face grouping on the development identities.")
    }

    static var arguments: [ArgumentDefinition<Self>] { [DevelopmentData.argument(\.data)] }

    var data = DevelopmentData()

    static let thresholds = [0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7]

    /// The people of each test/ photo, left to right; `nil` for someone unnamed.
    static let testPhotos: [String: [String?]] = [
        "alex_lacamoire1.jpg": ["alex_lacamoire"], "johnsnow_test1.jpg": ["kit_harington"],
        "kit_with_rose.jpg": ["rose_leslie", "kit_harington"], "obama1.jpg": ["obama"],
        "obama_and_biden.jpg": ["biden", "obama", nil],
    ]

    func validate() throws(CommandError) { try data.validateArgument() }

    func run(_ context: CommandContext) throws -> ExitStatus {
        var options = FaceDetectorOptions()
        options.descriptorMode = .all
        let detector = try FaceDetector(options: options)
        var descriptors: [[Float]] = []
        var identities: [String] = []
        var photos: [String] = []
        /// Adds the faces of `path`, left to right, as `people` (extra faces: unnamed).
        func add(_ path: String, _ people: [String?]) throws {
            let faces = try detector.process(contentsOfFile: path).sorted { $0.frame.minX < $1.frame.minX }
            if faces.count != people.count { progress("\(path): \(faces.count) faces, \(people.count) expected") }
            for (index, face) in faces.enumerated() {
                guard let descriptor = face.descriptor else {
                    progress("\(path): face \(index) has no descriptor")
                    continue
                }
                descriptors.append(descriptor.values)
                photos.append(path)
                let name = index < people.count ? people[index] : nil
                identities.append(name ?? "unnamed \((path as NSString).lastPathComponent) \(index)")
            }
        }
        let files = FileManager.default
        let identityFolder = data.path("photos/identities")
        for person in try files.contentsOfDirectory(atPath: identityFolder + "/train").sorted() {
            for file in try files.contentsOfDirectory(atPath: identityFolder + "/train/" + person).sorted() {
                try add(identityFolder + "/train/\(person)/\(file)", [person])
            }
        }
        for (file, people) in Self.testPhotos.sorted(by: { $0.key < $1.key }) {
            try add(identityFolder + "/test/" + file, people)
        }
        let cast = data.path("video/hamilton-cast")
        for file in try files.contentsOfDirectory(atPath: cast).sorted() {
            // alex-lacamoire.png is the alex_lacamoire of photos/identities.
            try add(cast + "/" + file, [(file as NSString).deletingPathExtension.replacingOccurrences(of: "-", with: "_")])
        }
        print("\(descriptors.count) faces of \(Set(identities).count) people")
        print()
        var rows: [[String]] = []
        // As facekit group does: the graph's tiles already use every core.
        BLASThreads.set(1)
        for threshold in Self.thresholds {
            // As group does: two faces of one photo are never joined directly.
            let found = try FaceClustering(threshold: threshold).cluster(descriptors) { photos[$0] == photos[$1] }
            let together = try FaceClustering(threshold: threshold).cluster(descriptors)
            let score = ClusteringScore(found: found.labels, truth: identities)
            rows.append([
                fixed(threshold, 2), "\(found.count)", fixed(score.pairwisePrecision, 3), fixed(score.pairwiseRecall, 3),
                fixed(score.pairwiseF, 3), fixed(score.bcubedPrecision, 3), fixed(score.bcubedRecall, 3),
                fixed(score.bcubedF, 3),
                fixed(ClusteringScore(found: together.labels, truth: identities).bcubedF, 3) + " ("
                    + Self.mistakes(together.labels, identities) + ")",
                Self.mistakes(found.labels, identities),
            ])
        }
        printTable(
            [
                "threshold", "people found", "pairwise P", "pairwise R", "pairwise F", "BCubed P", "BCubed R", "BCubed F",
                "BCubed F (mistakes), one photo's faces not kept apart", "mistakes",
            ],
            rows)
        return .success
    }

    /// The people split over several clusters and the clusters holding several people.
    static func mistakes(_ labels: [Int], _ identities: [String]) -> String {
        var clustersOf: [String: Set<Int>] = [:]
        var peopleIn: [Int: Set<String>] = [:]
        for (label, identity) in zip(labels, identities) {
            clustersOf[identity, default: []].insert(label)
            peopleIn[label, default: []].insert(identity)
        }
        let split = clustersOf.filter { $0.value.count > 1 }.keys.sorted().map { "\($0) split" }
        let merged = peopleIn.values.filter { $0.count > 1 }.map { $0.sorted().joined(separator: " + ") }.sorted()
        let all = split + merged.map { "\($0) merged" }
        return all.isEmpty ? "none" : all.joined(separator: "; ")
    }
}
