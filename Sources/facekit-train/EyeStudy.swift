@_spi(Training) import FaceKit
@_spi(Training) import FaceKitDatasets
import Foundation

/// The eye-open models: the still-photo model chosen by ``EyeModelSelection``, and the video
/// model, which adds each eye's openness relative to its own recent level (``EyeOpenLevel``) to
/// the still model's log-odds, so that it starts from the still model and never needs a person's
/// history to be right. The video model is scored leave-one-person-out on the FOCUS clips.
struct EyeStudy {
    var still: LogisticModel
    var stillFeatures: EyeModelSelection.FeatureSet
    var video: LogisticModel
    var report: [String]

    static func run(samples data: EyeSamples) -> EyeStudy {
        let samples = data.samples
        var lines: [String] = []
        lines += labelAlignmentTable(data)
        lines += [
            "", "### Eye-open model: candidates (held out: each FOCUS person, CEW and GENKI in five folds by file)", "",
            "Samples (one per eye): " + ["mahie", "soniya", "cew", "genki"].map { person in
                "\(person) \(samples.filter { $0.person == person }.count) (\(data.faces[person] ?? 0) faces, "
                    + "\(data.missed[person] ?? 0) labelled without a face)"
            }.joined(separator: ", ") + ".",
            "",
            "| features | L2 | weighting | mahie AUC | mahie bal. acc. | soniya AUC | soniya bal. acc. | CEW read closed | GENKI read open | CEW vs GENKI AUC | criterion |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        var best: EyeModelSelection.Scores?
        for candidate in EyeModelSelection.candidates {
            let scores = EyeModelSelection.crossValidate(candidate, samples)
            lines.append(
                "| \(candidate.features.rawValue) | \(candidate.l2) | \(candidate.balanced ? "balanced" : "none") | "
                    + "\(Report.f3(scores.metrics(person: "mahie").rocAUC)) | \(Report.f3(scores.balancedAccuracy(person: "mahie"))) | "
                    + "\(Report.f3(scores.metrics(person: "soniya").rocAUC)) | \(Report.f3(scores.balancedAccuracy(person: "soniya"))) | "
                    + "\(Report.f3(scores.closedShareCEW)) | \(Report.f3(scores.openShareGENKI)) | \(Report.f3(scores.stillAUC)) | \(Report.f3(scores.criterion)) |")
            FileHandle.standardError.write(Data("eyes: \(candidate) criterion \(Report.f3(scores.criterion))\n".utf8))
            if best == nil || scores.criterion > best!.criterion { best = scores }
        }
        let chosen = best!
        lines += ["", "Chosen: \(chosen.candidate) (highest criterion).", ""]
        lines += perClipTable(chosen, data: data)
        lines += sizeTable(chosen)
        lines += ["", "Reliability of the chosen model's held-out probabilities (all eyes of all groups):", ""]
        lines += Report.reliabilityTable(
            ClassifierMetrics(probabilities: chosen.heldOut, labels: samples.map(\.open)))
        let (video, videoLines) = videoModel(chosen, data: data)
        lines += videoLines
        return EyeStudy(
            still: chosen.candidate.fit(samples), stillFeatures: chosen.candidate.features, video: video, report: lines)
    }

    /// Mean eye aspect ratio against the labels as given and shifted: the shift with the highest
    /// AUC is how far the labels lead the video.
    static func labelAlignmentTable(_ data: EyeSamples) -> [String] {
        var lines = [
            "### FOCUS label alignment (mean eye aspect ratio as a score for 'open', AUC)", "",
            "| clip | label i = frame i | label i = frame i+1 (used) | label i = frame i+2 |", "|---|---|---|---|",
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
            lines.append("| \(name) | " + aucs.map(Report.f3).joined(separator: " | ") + " |")
        }
        return lines
    }

    /// Held-out readings of the still photos by face size: how small an eye the model reads.
    static func sizeTable(_ scores: EyeModelSelection.Scores) -> [String] {
        var lines = [
            "", "Held-out readings of CEW and GENKI eyes by face size (outer-eye-corner distance; an eye is about a third of it wide):", "",
            "| eye-corner distance | CEW eyes | read closed | GENKI eyes | read open |", "|---|---|---|---|---|",
        ]
        let bins: [(String, ClosedRange<Double>)] = [
            ("16-24 px", 16...24), ("24-32 px", 24...32), ("32-48 px", 32...48), ("48-64 px", 48...64), ("over 64 px", 64...1e9),
        ]
        for (name, range) in bins {
            func picked(_ person: String) -> [Int] {
                scores.samples.indices.filter {
                    scores.samples[$0].person == person && range.contains(scores.samples[$0].interOcular)
                }
            }
            let cew = picked("cew"), genki = picked("genki")
            let closed = Double(cew.filter { scores.heldOut[$0] < 0.5 }.count) / Double(max(cew.count, 1))
            let open = Double(genki.filter { scores.heldOut[$0] >= 0.5 }.count) / Double(max(genki.count, 1))
            lines.append("| \(name) | \(cew.count) | \(Report.f3(closed)) | \(genki.count) | \(Report.f3(open)) |")
        }
        return lines
    }

    static func perClipTable(_ scores: EyeModelSelection.Scores, data: EyeSamples) -> [String] {
        var lines = [
            "Held-out readings of the chosen still model, per FOCUS clip (the model never saw the clip's person):", "",
            "| clip | person | eye samples | closed | ROC AUC | accuracy at 0.5 | Brier |", "|---|---|---|---|---|---|---|",
        ]
        for (person, names) in EyeSamples.people.sorted(by: { $0.key < $1.key }) {
            for name in names {
                let picked = scores.samples.indices.filter { scores.samples[$0].source.hasPrefix(name + "#") }
                let m = ClassifierMetrics(
                    probabilities: picked.map { scores.heldOut[$0] }, labels: picked.map { scores.samples[$0].open })
                lines.append(
                    "| \(name) | \(person) | \(picked.count) | \(m.labels.filter { !$0 }.count) | \(Report.f3(m.rocAUC)) | "
                        + "\(Report.f3(m.accuracy())) | \(Report.f3(m.brierScore)) |")
            }
        }
        return lines
    }

    /// The video model, scored leave-one-person-out, then fitted on both people. Its features: the
    /// still model's held-out log-odds and the eye's log aspect ratio relative to its own level;
    /// until the level is known the still probability stands, as at run time.
    static func videoModel(_ scores: EyeModelSelection.Scores, data: EyeSamples) -> (LogisticModel, [String]) {
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
                            person: person, still: scores.heldOut[index], relative: relative, open: data.samples[index].open))
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
