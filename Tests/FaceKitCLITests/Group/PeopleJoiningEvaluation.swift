import FaceKit
import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// The measurement behind `group`'s two thresholds (docs/accuracy.md, "People by kind"): every
/// development set's faces (``DevelopmentPeople``) grouped together, as one collection, by each
/// candidate rule (clustering threshold, then ``VideoPersonJoining``'s threshold), every pair of
/// faces counted by kind (``PairKind``). The rule is chosen leave-one-set-out: for each set, the
/// best score (true joins minus twice the wrong ones, ties to group's rule, then to the first
/// listed) over the pairs with no face in it, reported on the pairs with a face in it.
///
/// It prints tables and asserts nothing about them; it runs only when asked, as it tracks five
/// videos (about ten minutes in a debug build):
///
/// `FACEKIT_EVALUATE_PEOPLE=1 swift test --skip-build --filter PeopleJoiningEvaluation`
@Suite("people by kind: the rules' evaluation")
struct PeopleJoiningEvaluation {
    static let conditions: [VideoPersonJoining.Condition] = [.uniquelyBelow, .margin(0.05), .margin(0.02), .nearest]
    static let rules: [PeopleRule] = [0.45, 0.50, 0.55, 0.60].flatMap { clustering in
        [PeopleRule(clustering: clustering, joining: nil)]
            + [0.55, 0.58, 0.60, 0.62, 0.65].flatMap { threshold in
                conditions.map { PeopleRule(clustering: clustering, joining: VideoPersonJoining(threshold: threshold, condition: $0)) }
            }
    }

    static var requested: Bool { ProcessInfo.processInfo.environment["FACEKIT_EVALUATE_PEOPLE"] == "1" }

    static func row(_ label: String, _ counts: [PairKind: PairCount]) -> String {
        "| " + ([label] + PairKind.allCases.map { counts[$0].map(\.cell) ?? "–" }).joined(separator: " | ") + " |"
    }

    static func header(_ first: String) -> String {
        "| " + ([first] + PairKind.allCases.map(\.rawValue)).joined(separator: " | ") + " |\n|"
            + String(repeating: "---|", count: PairKind.allCases.count + 1)
    }

    /// The `group` runs measured: every set as one collection, and each photo set with the
    /// Hamilton clip (and the webcam clips alone), as someone grouping one folder would.
    static let runs: [(name: String, sets: [DevelopmentPeople.DevelopmentSet])] =
        [("every set together", DevelopmentPeople.DevelopmentSet.allCases)]
        + [.identities, .faceRecognition, .cast, .compreface, .actors, .strangers].map { ("\($0.rawValue) + Hamilton clip", [$0, .clip]) }
        + [("focus-blink", [.focus])]

    /// One run's faces and each rule's people of them.
    struct Run {
        var name: String
        var faces: [DevelopmentPeople.Face]
        var people: [[Int?]]

        /// Rule `rule`'s counts over the pairs `include` keeps.
        func counts(_ rule: Int, include: (DevelopmentPeople.Face, DevelopmentPeople.Face) -> Bool = { _, _ in true })
            -> [PairKind: PairCount]
        {
            PairCount.byKind(faces, people: people[rule]) { include(faces[$0], faces[$1]) }
        }
    }

    @Test(
        "pair accuracy by kind, and the rule chosen leave-one-set-out", .needsModels, .needsSharedData,
        .enabled(if: requested, "skipped: an evaluation; set FACEKIT_EVALUATE_PEOPLE=1 to print its tables"))
    func evaluate() throws {
        let faces = try DevelopmentPeople.all()
        let sets = DevelopmentPeople.DevelopmentSet.allCases
        print("\(faces.count) faces: " + sets.map { set in "\(set.rawValue) \(faces.filter { $0.set == set }.count)" }.joined(separator: ", "))
        print("without a descriptor: " + faces.filter { $0.face.record.face.descriptor == nil }.map(\.identity).joined(separator: ", "))
        let runs = try Self.runs.map { run in
            let chosen = faces.filter { run.sets.contains($0.set) }
            return Run(name: run.name, faces: chosen, people: try Self.rules.map { try $0.people(chosen) })
        }
        let current = Self.rules.firstIndex(of: .group)!
        /// A rule's counts summed over the runs.
        func total(_ rule: Int, include: (DevelopmentPeople.Face, DevelopmentPeople.Face) -> Bool = { _, _ in true })
            -> [PairKind: PairCount]
        {
            runs.reduce(into: [:]) { $0.merge($1.counts(rule, include: include), uniquingKeysWith: +) }
        }

        print("\nGroup's rule (\(Self.rules[current])), by run (true / wrong / missed joins):")
        print(Self.header("run"))
        for run in runs { print(Self.row(run.name, run.counts(current))) }

        print("\nEvery rule, summed over the runs:")
        print(Self.header("rule"))
        for (index, rule) in Self.rules.enumerated() {
            print(Self.row(rule.description + (index == current ? " (group)" : ""), total(index)))
        }

        print("\nLeave one set out: the rule chosen on the pairs without a face of the set, on the pairs with one (all runs):")
        print(Self.header("set left out: rule chosen"))
        var chosenTotal: [PairKind: PairCount] = [:]
        var currentTotal: [PairKind: PairCount] = [:]
        for set in sets {
            let outside = { (a: DevelopmentPeople.Face, b: DevelopmentPeople.Face) in a.set != set && b.set != set }
            let scores = Self.rules.indices.map { total($0, include: outside).values.map(\.score).reduce(0, +) }
            let best = scores.max()!
            // Ties to group's rule, then to the first listed: the lower thresholds, as a split person is easier to mend.
            let chosen = scores[current] == best ? current : scores.firstIndex(of: best)!
            let inside = { (a: DevelopmentPeople.Face, b: DevelopmentPeople.Face) in !outside(a, b) }
            print(Self.row("\(set.rawValue): \(Self.rules[chosen])", total(chosen, include: inside)))
            print(Self.row("\(set.rawValue): group's rule", total(current, include: inside)))
            // Each pair once in the totals: counted with the first of its sets.
            let first = { (a: DevelopmentPeople.Face, b: DevelopmentPeople.Face) in min(a.set, b.set) == set }
            chosenTotal.merge(total(chosen, include: first), uniquingKeysWith: +)
            currentTotal.merge(total(current, include: first), uniquingKeysWith: +)
        }
        print(Self.row("every set, each left out in turn", chosenTotal))
        print(Self.row("every set, group's rule", currentTotal))

        // The rest looks at every set together.
        let people = runs[0].people

        print("\nBy person, group's rule (true / wrong / missed joins over the person's pairs):")
        let names = Set(faces.map(\.identity)).sorted()
        for name in names where !name.hasPrefix("unnamed") || faces.contains(where: { $0.identity == name && $0.isChild }) {
            var count = PairCount()
            for a in faces.indices {
                for b in faces.indices where a < b && (faces[a].identity == name || faces[b].identity == name) {
                    count.add(together: people[current][a] != nil && people[current][a] == people[current][b],
                              same: faces[a].identity == faces[b].identity)
                }
            }
            print("| \(name) | \(faces.filter { $0.identity == name }.count) | \(count.cell) |")
        }

        print("\nPeople of group's rule holding several identities:")
        var byPerson: [Int: [Int]] = [:]
        for (index, person) in people[current].enumerated() { if let person { byPerson[person, default: []].append(index) } }
        for members in byPerson.values where Set(members.map { faces[$0].identity }).count > 1 {
            print("- " + members.map { faces[$0].identity + (faces[$0].isChild ? " (child)" : "") }.joined(separator: ", "))
        }

        for run in runs.prefix(4) {
            print("\n\(run.name): each video-only person's nearest photo people (their photo faces' mean), clustered at "
                + "\(FaceClustering.defaultThreshold):")
            Self.printNearest(run.faces, people: try PeopleRule(clustering: FaceClustering.defaultThreshold, joining: nil).people(run.faces))
        }

        print("\nEach child's and each track's nearest other identities (descriptor distance):")
        for (index, face) in faces.enumerated() where face.isChild || face.face.isVideo {
            guard let descriptor = face.face.record.face.descriptor else { continue }
            let others = faces.indices.filter { faces[$0].identity != face.identity }
                .compactMap { other in faces[other].face.record.face.descriptor.map { (other, descriptor.distance(to: $0)) } }
                .sorted { $0.1 < $1.1 }.prefix(3)
            let same = faces.indices.filter { $0 != index && faces[$0].identity == face.identity }
                .compactMap { faces[$0].face.record.face.descriptor.map(descriptor.distance) }.min()
            print("- \(face.identity)\(face.isChild ? " (child)" : ""): own nearest \(same.map { String(format: "%.3f", $0) } ?? "–"); "
                + others.map { "\(faces[$0.0].identity) \(String(format: "%.3f", $0.1))" }.joined(separator: ", "))
        }
    }

    /// For looking at: each track's three nearest photo people (their photo faces' mean), named by their identities.
    static func printNearest(_ faces: [DevelopmentPeople.Face], people: [Int?]) {
        var members: [Int: [Int]] = [:]
        for (index, person) in people.enumerated() { if let person { members[person, default: []].append(index) } }
        func names(_ indices: [Int]) -> String { Set(indices.map { faces[$0].identity }).sorted().joined(separator: "+") }
        func mean(_ indices: [Int]) -> FaceDescriptor {
            FaceDescriptor.mean(of: indices.compactMap { faces[$0].face.record.face.descriptor })
        }
        var means: [(name: String, descriptor: FaceDescriptor)] = []
        for person in members.values {
            let photos = person.filter { !faces[$0].face.isVideo }
            if !photos.isEmpty { means.append((names(photos), mean(photos))) }
        }
        for person in members.values where person.allSatisfy({ faces[$0].face.isVideo }) {
            let descriptor = mean(person)
            let ranked = means.map { (name: $0.name, distance: descriptor.distance(to: $0.descriptor)) }
                .sorted { $0.distance < $1.distance }.prefix(3)
            let cells = ranked.map { "\($0.name) \(String(format: "%.3f", $0.distance))" }
            print("- \(names(person)): " + cells.joined(separator: ", "))
        }
    }
}
