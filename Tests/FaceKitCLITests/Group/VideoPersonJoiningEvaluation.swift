import FaceKit
import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitArguments
@testable import FaceKitCLI

/// The measurement behind ``VideoPersonJoining``'s rule (docs/accuracy.md): `group`'s faces of
/// three development sets (photos with identities plus the Hamilton clip), clustered as `group`
/// clusters them, then joined by each candidate rule; it prints, per set and rule, the pairs of
/// a video track and a photo face put in one person (true: one identity; wrong: two) and the
/// pairs of one identity left apart (missed). The rule is chosen on the first set alone, by
/// true joins minus twice the wrong ones (ties to the first in the table); the others report it.
///
/// `swift test --skip-build --filter VideoPersonJoiningEvaluation`
@Suite("photo and video people joined: the rule's evaluation")
struct VideoPersonJoiningEvaluation {
    static let clip = TestData.shared("video/short_hamilton_clip.mp4")

    /// Who a track of the Hamilton clip is: the track on screen at `frame`, and when several are,
    /// the one whose best shot holds the point (docs/accuracy.md, "Photo and video faces of one
    /// person"). Others are unnamed, each a person of their own.
    static let clipPeople: [(name: String, frame: Int, point: CGPoint?)] = [
        ("lin_manuel_miranda", 100, nil), ("alex_lacamoire", 38, CGPoint(x: 407, y: 244)),
        ("man at the left", 240, CGPoint(x: 81, y: 95)), ("marian_robinson", 240, CGPoint(x: 192, y: 125)),
        ("michelle_obama", 240, CGPoint(x: 421, y: 134)), ("obama", 240, CGPoint(x: 355, y: 90)),
    ]

    /// The people of a photo, left to right, by its path; `nil` for someone unnamed.
    typealias PhotoPeople = @Sendable (String) -> [String?]

    /// identities/: train/<person>/ and the test/ photos (as facekit-evaluate clustering names them).
    static func identitiesFolder(_ path: String) -> [String?] {
        let tests: [String: [String?]] = [
            "alex_lacamoire1.jpg": ["alex_lacamoire"], "johnsnow_test1.jpg": ["kit_harington"],
            "kit_with_rose.jpg": ["rose_leslie", "kit_harington"], "obama1.jpg": ["obama"],
            "obama_and_biden.jpg": ["biden", "obama", nil],
        ]
        let url = URL(fileURLWithPath: path)
        if let named = tests[url.lastPathComponent] { return named }
        return [url.deletingLastPathComponent().lastPathComponent]
    }

    /// hamilton-cast/: <first>-<last>.png.
    static func castFolder(_ path: String) -> [String?] {
        [URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent.replacingOccurrences(of: "-", with: "_")]
    }

    /// face_recognition/: obama*.jpg and 32bit.png (Obama at the microphone), biden.jpg, and
    /// two_people.jpg (Obama, then Biden, seen by eye).
    static func faceRecognitionFolder(_ path: String) -> [String?] {
        let name = URL(fileURLWithPath: path).lastPathComponent
        if name == "two_people.jpg" { return ["obama", "biden"] }
        if name == "biden.jpg" { return ["biden"] }
        return ["obama"]
    }

    static let sets: [(name: String, photos: String, people: PhotoPeople)] = [
        ("identities photos + Hamilton clip", TestData.shared("photos/identities"), identitiesFolder),
        ("hamilton-cast photos + Hamilton clip", TestData.shared("video/hamilton-cast"), castFolder),
        ("face_recognition photos + Hamilton clip", TestData.shared("photos/face_recognition"), faceRecognitionFolder),
    ]

    static let thresholds = [0.55, 0.58, 0.60, 0.62, 0.65]
    static let conditions: [VideoPersonJoining.Condition] = [.uniquelyBelow, .margin(0.05), .margin(0.02), .nearest]

    struct PairCount: Equatable {
        var trueJoins = 0
        var wrongJoins = 0
        var missedJoins = 0
        var score: Int { trueJoins - 2 * wrongJoins }
    }

    /// `group`'s faces of `inputs`, in order, as its analysis gathers them.
    static func faces(_ inputs: [String]) throws -> [GroupedFace] {
        let command = try #require(
            try GroupCommand.parse(
                ["--model-dir", TestSupport.modelDirectory ?? "/nonexistent", "--quiet", "--output", "unused"] + inputs))
        let expanded = GroupInput.expand(inputs)
        let analysis = GroupAnalysis(command: command, stderr: StringOutput(), inputs: expanded.count, showsProgress: false)
        for batch in GroupInput.batches(expanded) { try analysis.add(batch) }
        #expect(analysis.failures == 0)
        return analysis.faces
    }

    /// Each face's identity: photos by `people` (faces left to right), tracks by ``clipPeople``.
    static func identities(of faces: [GroupedFace], photos people: PhotoPeople) throws -> [String] {
        var names = [String?](repeating: nil, count: faces.count)
        let photoFaces = Dictionary(grouping: faces.indices.filter { !faces[$0].isVideo }) { faces[$0].record.source }
        for (source, indices) in photoFaces {
            let named = people(source)
            for (position, index) in indices.sorted(by: { faces[$0].record.face.frame.minX < faces[$1].record.face.frame.minX })
                .enumerated() where position < named.count
            {
                names[index] = named[position]
            }
        }
        for person in clipPeople {
            let onScreen = faces.indices.filter { index in
                faces[index].isVideo && faces[index].firstFrame! <= person.frame && person.frame <= faces[index].lastFrame!
            }
            let matching = onScreen.filter { person.point.map(faces[$0].record.face.frame.contains) ?? true }
            try #require(matching.count == 1, "\(person.name): \(matching.count) tracks")
            names[matching[0]] = person.name
        }
        return names.enumerated().map { index, name in name ?? "unnamed \(faces[index].record.source) \(index)" }
    }

    /// The pairs of a track and a photo face: together and one identity, together and two, apart and one.
    static func pairs(_ faces: [GroupedFace], people: [Int?], identities: [String]) -> PairCount {
        var count = PairCount()
        for track in faces.indices where faces[track].isVideo {
            for photo in faces.indices where !faces[photo].isVideo {
                let together = people[track] != nil && people[track] == people[photo]
                let same = identities[track] == identities[photo]
                if together && same { count.trueJoins += 1 }
                if together && !same { count.wrongJoins += 1 }
                if !together && same { count.missedJoins += 1 }
            }
        }
        return count
    }

    /// For looking at: each named track's two nearest photo people (their photo faces' mean).
    static func printNearest(_ faces: [GroupedFace], people: [Int?], identities: [String], set: String) {
        var photoFaces: [Int: [Int]] = [:]
        for index in faces.indices where !faces[index].isVideo {
            if let person = people[index] { photoFaces[person, default: []].append(index) }
        }
        let means = photoFaces.mapValues { members in
            (FaceDescriptor.mean(of: members.compactMap { faces[$0].record.face.descriptor }),
             Set(members.map { identities[$0] }).sorted().joined(separator: "+"))
        }
        for track in faces.indices where faces[track].isVideo && !identities[track].hasPrefix("unnamed") {
            guard let descriptor = faces[track].record.face.descriptor else { continue }
            let ranked = means.values.map { (name: $0.1, distance: descriptor.distance(to: $0.0)) }.sorted { $0.distance < $1.distance }
            print("\(set): track \(identities[track]): "
                + ranked.prefix(2).map { "\($0.name) \(String(format: "%.3f", $0.distance))" }.joined(separator: ", "))
        }
    }

    static func cell(_ count: PairCount) -> String { "\(count.trueJoins) / \(count.wrongJoins) / \(count.missedJoins)" }

    @Test("pair accuracy by threshold and condition; the rule chosen on the first set is group's", .needsModels, .needsSharedData)
    func evaluate() throws {
        let video = try Self.faces([Self.clip])
        var rows: [[String]] = []
        var header = ["rule"]
        var counts: [[PairCount]] = []  // [set][rule]; rule 0: clustering alone
        for set in Self.sets {
            header.append(set.name)
            let faces = try Self.faces([set.photos]) + video
            let identities = try Self.identities(of: faces, photos: set.people)
            let clustered = try GroupCommand.people(of: faces, clustering: FaceClustering())
            Self.printNearest(faces, people: clustered.people, identities: identities, set: set.name)
            var setCounts = [Self.pairs(faces, people: clustered.people, identities: identities)]
            for threshold in Self.thresholds {
                for condition in Self.conditions {
                    let joined = VideoPersonJoining(threshold: threshold, condition: condition)
                        .join(faces, people: clustered.people, count: clustered.count)
                    setCounts.append(Self.pairs(faces, people: joined.people, identities: identities))
                }
            }
            counts.append(setCounts)
        }
        var rules = ["clustering alone (0.55)"]
        for threshold in Self.thresholds {
            for condition in Self.conditions { rules.append("\(condition) < \(String(format: "%.2f", threshold))") }
        }
        for (index, rule) in rules.enumerated() { rows.append([rule] + counts.map { Self.cell($0[index]) }) }
        // Chosen on the first set: the best score, ties to the first rule listed.
        let scores = counts[0].dropFirst().map(\.score)
        let chosen = scores.firstIndex(of: scores.max()!)!
        print("pairs of a track and a photo face: true joins / wrong joins / missed joins")
        print("| " + header.joined(separator: " | ") + " |")
        print("|" + String(repeating: "---|", count: header.count))
        for row in rows { print("| " + row.joined(separator: " | ") + " |") }
        print("chosen on \(Self.sets[0].name): \(rules[chosen + 1])")
        let rule = VideoPersonJoining(
            threshold: Self.thresholds[chosen / Self.conditions.count],
            condition: Self.conditions[chosen % Self.conditions.count])
        #expect(rule == VideoPersonJoining(), "group's default is not the rule the development set chooses")
    }
}
