import FaceKit
import FaceKitDatasets
import FaceKitArguments
import Foundation

/// The video eye model on top of the eye-state network (``EyeStateModel``, trained by
/// `scripts/train-eye-model`): it adds each eye's openness relative to its own recent level
/// (``EyeOpenLevel``) to the network's log-odds, so that it starts from the still model and never
/// needs a person's history to be right. Its still input is the network's held-out probability
/// (the network that never saw the clip's person), and it is scored leave-one-person-out on the
/// FOCUS clips.
struct EyeStudy {
    var video: LogisticModel
    var report: [String]

    /// `stillHeldOut`: the network's held-out probability of each FOCUS sample, by
    /// ``EyeHeldOut/key(_:)``.
    static func run(samples data: EyeSamples, stillHeldOut: [String: Double]) throws -> EyeStudy {
        var lines = labelAlignmentTable(data)
        let still = try data.samples.map { sample throws -> Double in
            guard sample.person != "mahie" && sample.person != "soniya" else {
                guard let probability = stillHeldOut[EyeHeldOut.key(sample)] else {
                    throw CommandError(
                        "no held-out eye-state probability for \(sample.source) (\(sample.eye)): "
                            + "run scripts/train-eye-model again")
                }
                return probability
            }
            return .nan
        }
        let (video, videoLines) = videoModel(still: still, data: data)
        lines += videoLines
        return EyeStudy(video: video, report: lines)
    }

    /// Mean eye aspect ratio against the labels as given and shifted: the shift with the highest
    /// AUC is how far the labels lead the video (``BlinkLabels/leads``, which the table checks).
    static func labelAlignmentTable(_ data: EyeSamples) -> [String] {
        var lines = [
            "### FOCUS label alignment (mean eye aspect ratio as a score for 'open', AUC)", "",
            "| clip | label i = frame i | label i = frame i+1 | label i = frame i+2 | lead used |",
            "|---|---|---|---|---|",
        ]
        for (name, alignment) in data.labelAlignment.sorted(by: { $0.key < $1.key }) {
            let aucs = (0...2).map { shift -> Double in
                var scores: [Double] = [], labels: [Bool] = []
                for (line, closed) in alignment.rawClosed.enumerated() {
                    let frame = line + shift
                    guard frame < alignment.ratios.count, let ratio = alignment.ratios[frame] else { continue }
                    scores.append(ratio)
                    labels.append(!closed)
                }
                return ClassifierMetrics.rocAUC(scores: scores, labels: labels)
            }
            let used = BlinkLabels.leads[name] ?? 1
            let best = aucs.indices.max { aucs[$0] < aucs[$1] } ?? used
            lines.append("| \(name) | " + aucs.map(Report.f3).joined(separator: " | ") + " | \(used) |")
            if best != used {
                lines.append("| (the labels of \(name) fit best with a lead of \(best): BlinkLabels.leads says \(used)) |||||")
            }
        }
        return lines
    }

    /// The video model, scored leave-one-person-out, then fitted on both people. Its features: the
    /// network's held-out log-odds (`still`, by sample) and the eye's log aspect ratio relative to
    /// its own level; until the level is known the still probability stands, as at run time.
    static func videoModel(still: [Double], data: EyeSamples) -> (LogisticModel, [String]) {
        struct Row { var person: String; var still: Double; var relative: Double?; var open: Bool }
        var rows: [Row] = []
        for (person, names) in EyeSamples.people {
            for name in names {
                var levels = [EyeOpenLevel(), EyeOpenLevel()]
                for frame in data.clips[name] ?? [] {
                    for side in 0..<2 {
                        let relative = levels[side].observe(frame.aspectRatios[side], timestampMs: frame.timestampMs)
                        guard let index = frame.samples[side] else { continue }
                        rows.append(Row(
                            person: person, still: still[index], relative: relative, open: data.samples[index].open))
                    }
                }
            }
        }
        func features(_ row: Row, _ withStill: Bool) -> [Double]? {
            guard let relative = row.relative else { return nil }
            return withStill ? VideoEyeClassifier.features(still: row.still, relativeOpenness: relative) : [relative]
        }
        func fit(_ rows: [Row], _ withStill: Bool) -> LogisticModel {
            let usable = rows.filter { $0.relative != nil }
            return LogisticModel.fit(samples: usable.map { features($0, withStill)! }, labels: usable.map(\.open))
        }
        var lines = [
            "", "### Eyes open in video (leave one person out: fitted on the other FOCUS person)", "",
            "| person | model | ROC AUC | accuracy at 0.5 | Brier |", "|---|---|---|---|---|",
        ]
        for person in ["mahie", "soniya"] {
            let test = rows.filter { $0.person == person }
            for (name, withStill) in [("relative openness only (the former video model)", false), ("still log-odds + relative openness", true)] {
                let model = fit(rows.filter { $0.person != person }, withStill)
                let m = ClassifierMetrics(
                    probabilities: test.map { row in features(row, withStill).map(model.probability) ?? row.still },
                    labels: test.map(\.open))
                lines.append("| \(person) | \(name) | \(Report.f3(m.rocAUC)) | \(Report.f3(m.accuracy())) | \(Report.f3(m.brierScore)) |")
            }
            let still = ClassifierMetrics(probabilities: test.map(\.still), labels: test.map(\.open))
            lines.append("| \(person) | still model alone | \(Report.f3(still.rocAUC)) | \(Report.f3(still.accuracy())) | \(Report.f3(still.brierScore)) |")
        }
        return (fit(rows, true), lines)
    }
}
