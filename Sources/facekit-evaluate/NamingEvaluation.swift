import FaceKit
import FaceKitArguments
import FaceKitDatasets
import Foundation

/// How well descriptors tell people apart, and how often `--known` names a face right: on every
/// single-face photo of the development identities (photos/identities: train/<person>/ and the
/// test/ photos named after one person) and the Hamilton cast's reference photos.
///
/// Verification: every pair of photos, same person or not, and the share of each kind on the
/// right side of each tolerance. Naming: each photo in turn is named with every other photo as
/// the known people (leave one photo out), so a person with one photo is someone the folder does
/// not know, and must be left unnamed.
struct NamingEvaluation: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "naming",
            abstract: "Same/different-person verification and --known naming on the development identities.")
    }

    static var arguments: [ArgumentDefinition<Self>] { [DevelopmentData.argument(\.data)] }

    var data = DevelopmentData()

    static let tolerances = [0.45, 0.5, 0.55, 0.6, 0.65]

    func validate() throws(CommandError) { try data.validateArgument() }

    func run(_ context: CommandContext) throws -> ExitStatus {
        var options = FaceDetectorOptions()
        options.descriptorMode = .all
        let detector = try FaceDetector(options: options)
        var photos: [(person: String, file: String, descriptor: FaceDescriptor)] = []
        func add(_ person: String, _ path: String) throws {
            let faces = try detector.process(contentsOfFile: path)
            guard faces.count == 1, let descriptor = faces[0].descriptor else {
                progress("skipped \(path): \(faces.count) faces")
                return
            }
            photos.append((person, (path as NSString).lastPathComponent, descriptor))
        }
        let identities = data.path("photos/identities")
        let files = FileManager.default
        for person in try files.contentsOfDirectory(atPath: identities + "/train").sorted() {
            for file in try files.contentsOfDirectory(atPath: identities + "/train/" + person).sorted() {
                try add(person, identities + "/train/\(person)/\(file)")
            }
        }
        // test/ photos of one person, named after them (the others hold several people).
        let tests = ["alex_lacamoire1.jpg": "alex_lacamoire", "johnsnow_test1.jpg": "kit_harington", "obama1.jpg": "obama"]
        for (file, person) in tests.sorted(by: { $0.key < $1.key }) { try add(person, identities + "/test/" + file) }
        let cast = data.path("video/hamilton-cast")
        for file in try files.contentsOfDirectory(atPath: cast).sorted() {
            // alex-lacamoire.png is the alex_lacamoire of photos/identities: one person, one name.
            try add((file as NSString).deletingPathExtension.replacingOccurrences(of: "-", with: "_"), cast + "/" + file)
        }

        var same: [Double] = []
        var different: [Double] = []
        var closeStrangers: [String] = []
        for a in photos.indices {
            for b in photos.indices where b > a {
                let distance = photos[a].descriptor.distance(to: photos[b].descriptor)
                if photos[a].person == photos[b].person {
                    same.append(distance)
                } else {
                    different.append(distance)
                    if distance <= 0.6 { closeStrangers.append("\(photos[a].file) / \(photos[b].file) \(fixed(distance, 3))") }
                }
            }
        }
        print("different people within 0.6: " + (closeStrangers.isEmpty ? "none" : closeStrangers.joined(separator: "; ")))
        print("\(photos.count) photos of \(Set(photos.map(\.person)).count) people: \(same.count) same-person pairs, \(different.count) different-person pairs")
        print("same person: \(fixed(same.min() ?? .nan, 3))-\(fixed(same.max() ?? .nan, 3)); different: \(fixed(different.min() ?? .nan, 3))-\(fixed(different.max() ?? .nan, 3))")
        print()
        var rows: [[String]] = []
        for tolerance in Self.tolerances {
            let accepted = same.filter { $0 <= tolerance }.count
            let rejected = different.filter { $0 > tolerance }.count
            var right = 0, unnamedKnown = 0, wrong = 0, strangersLeft = 0, strangers = 0
            for index in photos.indices {
                let others = photos.indices.filter { $0 != index }
                let known = KnownPeopleTable(people: others.map { (photos[$0].person, photos[$0].descriptor) })
                let isKnown = others.contains { photos[$0].person == photos[index].person }
                let name = known.name(for: photos[index].descriptor, tolerance: tolerance)
                if !isKnown {
                    strangers += 1
                    if name == nil { strangersLeft += 1 } else { wrong += 1 }
                } else if name == photos[index].person {
                    right += 1
                } else if name == nil {
                    unnamedKnown += 1
                } else {
                    wrong += 1
                }
            }
            rows.append([
                fixed(tolerance, 2), "\(accepted)/\(same.count)", "\(rejected)/\(different.count)",
                "\(right)/\(photos.count - strangers)", "\(unnamedKnown)", "\(strangersLeft)/\(strangers)", "\(wrong)",
            ])
        }
        printTable(
            [
                "tolerance", "same person accepted", "different people rejected", "known named right",
                "known left unnamed", "strangers left unnamed", "named wrong",
            ], rows)
        return .success
    }
}

/// The nearest-reference rule of `--known`, over (person, descriptor) pairs.
private struct KnownPeopleTable {
    var people: [(person: String, descriptor: FaceDescriptor)]

    func name(for descriptor: FaceDescriptor, tolerance: Double) -> String? {
        guard let nearest = people.min(by: { $0.descriptor.distance(to: descriptor) < $1.descriptor.distance(to: descriptor) })
        else { return nil }
        return nearest.descriptor.distance(to: descriptor) <= tolerance ? nearest.person : nil
    }
}
