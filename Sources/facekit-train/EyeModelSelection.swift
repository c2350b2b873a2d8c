@_spi(Training) import FaceKit
@_spi(Training) import FaceKitDatasets
import Foundation

/// Chooses the still-photo eye model by leave-one-group-out scores, never on one split.
///
/// Folds: each FOCUS person is one fold (a model is scored on a person it has not seen), and the
/// CEW and GENKI photos are split by file into five more. Every candidate (feature set, L2
/// penalty, weighting) is fitted seven times, each time without one fold, and scored on that
/// fold; the candidate whose held-out readings are right most often, averaged over the four
/// groups of people (each FOCUS person's balanced accuracy, the share of CEW faces read as
/// closed, of GENKI faces read as open), is chosen and refitted on everything.
struct EyeModelSelection {
    enum FeatureSet: String, CaseIterable {
        case geometry
        /// Geometry and the shipped patch (``EyeAppearance/layout``): what ``FaceClassifier`` uses.
        case both = "geometry + tight patch"
        case bothWide = "geometry + wide patch"

        func features(of sample: EyeSamples.Sample) -> [Double] {
            switch self {
            case .geometry: sample.geometry
            case .both: sample.geometry + sample.appearance[0]
            case .bothWide: sample.geometry + sample.appearance[1]
            }
        }
    }

    struct Candidate: CustomStringConvertible {
        var features: FeatureSet
        var l2: Double
        /// Each (person, open/closed) group counts equally, rather than each sample.
        var balanced: Bool

        var description: String { "\(features.rawValue), l2 \(l2), \(balanced ? "balanced" : "unweighted")" }

        func fit(_ samples: [EyeSamples.Sample]) -> LogisticModel {
            LogisticModel.fit(
                samples: samples.map(features.features), labels: samples.map(\.open),
                weights: balanced ? Self.groupWeights(samples) : nil, l2: l2)
        }

        func probability(_ model: LogisticModel, _ sample: EyeSamples.Sample) -> Double {
            model.probability(features.features(of: sample))
        }

        /// Weights under which every (person, label) group sums to the same total.
        static func groupWeights(_ samples: [EyeSamples.Sample]) -> [Double] {
            var counts: [String: Int] = [:]
            for s in samples { counts["\(s.person)/\(s.open)", default: 0] += 1 }
            let groups = Double(counts.count)
            return samples.map { Double(samples.count) / groups / Double(counts["\($0.person)/\($0.open)"]!) }
        }
    }

    /// A candidate's held-out probability for every sample.
    struct Scores {
        var candidate: Candidate
        var heldOut: [Double]
        let samples: [EyeSamples.Sample]

        func metrics(person: String) -> ClassifierMetrics {
            let picked = samples.indices.filter { samples[$0].person == person }
            return ClassifierMetrics(probabilities: picked.map { heldOut[$0] }, labels: picked.map { samples[$0].open })
        }

        /// One probability per face (the mean of its eyes) for a still-photo group.
        func perFace(person: String) -> [Double] {
            var sums: [String: (Double, Int)] = [:]
            for i in samples.indices where samples[i].person == person {
                let (sum, count) = sums[samples[i].source] ?? (0, 0)
                sums[samples[i].source] = (sum + heldOut[i], count + 1)
            }
            return sums.keys.sorted().map { sums[$0]!.0 / Double(sums[$0]!.1) }
        }

        func balancedAccuracy(person: String) -> Double {
            let m = metrics(person: person)
            let open = zip(m.probabilities, m.labels).filter { $0.1 }.map { $0.0 >= 0.5 ? 1.0 : 0 }
            let closed = zip(m.probabilities, m.labels).filter { !$0.1 }.map { $0.0 < 0.5 ? 1.0 : 0 }
            return (open.reduce(0, +) / Double(max(open.count, 1)) + closed.reduce(0, +) / Double(max(closed.count, 1))) / 2
        }

        var closedShareCEW: Double { share(perFace(person: "cew")) { $0 < 0.5 } }
        var openShareGENKI: Double { share(perFace(person: "genki")) { $0 >= 0.5 } }
        var stillAUC: Double {
            let cew = perFace(person: "cew"), genki = perFace(person: "genki")
            return ClassifierMetrics.rocAUC(
                scores: cew + genki, labels: [Bool](repeating: false, count: cew.count) + [Bool](repeating: true, count: genki.count))
        }

        /// The selection criterion: held-out readings right, averaged over the four groups.
        var criterion: Double {
            (balancedAccuracy(person: "mahie") + balancedAccuracy(person: "soniya") + closedShareCEW + openShareGENKI) / 4
        }

        private func share(_ values: [Double], _ test: (Double) -> Bool) -> Double {
            Double(values.filter(test).count) / Double(max(values.count, 1))
        }
    }

    static let candidates: [Candidate] = [FeatureSet.geometry, .bothWide, .both].flatMap { features in
        [1e-3, 1e-2, 1e-1].map { Candidate(features: features, l2: $0, balanced: true) }
    }

    /// Held-out probabilities of `candidate` over all folds.
    static func crossValidate(_ candidate: Candidate, _ samples: [EyeSamples.Sample]) -> Scores {
        var heldOut = [Double](repeating: .nan, count: samples.count)
        for fold in Set(samples.map(\.fold)).sorted() {
            let model = candidate.fit(samples.filter { $0.fold != fold })
            for i in samples.indices where samples[i].fold == fold { heldOut[i] = candidate.probability(model, samples[i]) }
        }
        return Scores(candidate: candidate, heldOut: heldOut, samples: samples)
    }
}
