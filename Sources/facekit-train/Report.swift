@_spi(Training) import FaceKit
import FaceKitDatasets
import Foundation

/// The markdown tables docs/accuracy.md quotes.
enum Report {
    /// `haarScores`: OpenCV's haarcascade_smile score (``HaarSmileBaseline``) of each held-out face.
    static func smile(model: LogisticModel, genkiOnly: LogisticModel, data: SmileData, haarScores: [Double]) -> String {
        let metrics = ClassifierMetrics(
            probabilities: data.heldOut.map { model.probability($0.features) }, labels: data.heldOut.map(\.label))
        // Baseline from ../shared/docs: mouth width over eye distance, alone, as a ranking score.
        let widthAUC = ClassifierMetrics.rocAUC(scores: data.heldOut.map { $0.features[0] }, labels: data.heldOut.map(\.label))
        // Baseline asked for by the classification issue: haarcascade_smile's largest neighbour count.
        let haarAUC = ClassifierMetrics.rocAUC(scores: haarScores, labels: data.heldOut.map(\.label))
        let smileD = ClassifierMetrics(
            probabilities: data.heldOutSmileD.map { model.probability($0.features) }, labels: data.heldOutSmileD.map(\.label))
        let genkiOnlyOnGenki = ClassifierMetrics(
            probabilities: data.heldOut.map { genkiOnly.probability($0.features) }, labels: data.heldOut.map(\.label))
        let genkiOnlyOnSmileD = ClassifierMetrics(
            probabilities: data.heldOutSmileD.map { genkiOnly.probability($0.features) }, labels: data.heldOutSmileD.map(\.label))
        var lines = [
            "### Smile (held out: GENKI-4K files numbered 3 mod 4, SMILEsmileD odd numbers)",
            "",
            "Trained on \(data.train.count) faces (GENKI-4K 1 mod 4 and SMILEsmileD even numbers); "
                + "evaluated on \(data.heldOut.count) GENKI-4K and \(data.heldOutSmileD.count) SMILEsmileD faces; "
                + "\(data.missed) GENKI-4K and \(data.missedSmileD) SMILEsmileD labelled files had no face found.",
            "",
            "| model | ROC AUC | accuracy at 0.5 | Brier score |",
            "|---|---|---|---|",
            metricsRow("FaceKit smile model, GENKI-4K", metrics),
            metricsRow("the same fitted on GENKI-4K only, GENKI-4K", genkiOnlyOnGenki),
            "| baseline: mouth width / eye distance, GENKI-4K | \(f3(widthAUC)) | | |",
            "| baseline: OpenCV haarcascade_smile (max neighbours), GENKI-4K | \(f3(haarAUC)) | | |",
            metricsRow("FaceKit smile model, SMILEsmileD (64x64 grey crops)", smileD),
            metricsRow("the same fitted on GENKI-4K only, SMILEsmileD", genkiOnlyOnSmileD),
            "",
            "GENKI-4K reliability:",
            "",
        ]
        lines += reliabilityTable(metrics)
        lines += ["SMILEsmileD reliability:", ""]
        lines += reliabilityTable(smileD)
        return lines.joined(separator: "\n")
    }

    static func eyes(model: LogisticModel, data: EyeData, otherPeople: [FaceShape]) -> String {
        let metrics = ClassifierMetrics(
            probabilities: data.heldOut.map { model.probability($0.features) }, labels: data.heldOut.map(\.label))
        let frames = data.heldOutFrames
        let earAUC = ClassifierMetrics.rocAUC(scores: frames.map(\.aspectRatio), labels: frames.map(\.open))
        let thresholdAccuracy = Double(frames.filter { ($0.aspectRatio >= 0.2) == $0.open }.count) / Double(frames.count)
        let alwaysOpen = Double(frames.filter(\.open).count) / Double(frames.count)
        // Other people's (nearly always open) eyes: how many the model reads as open.
        let others = otherPeople.flatMap { shape in
            [EyeFeatures.Eye.left, .right].map { model.probability(EyeFeatures.features(of: shape, eye: $0)) }
        }
        let othersOpen = Double(others.filter { $0 >= 0.5 }.count) / Double(max(others.count, 1))
        var lines = [
            "### Eyes open (FOCUS \(EyeData.heldOutVideo), held out; trained on \(EyeData.trainingVideos.joined(separator: ", ")))",
            "",
            "Trained on \(data.train.count) eye examples, evaluated on \(data.heldOut.count) (one per eye per frame); "
                + "\(data.missed) labelled frames had no face found.",
            "",
            "| model | ROC AUC | accuracy at 0.5 | Brier score |",
            "|---|---|---|---|",
            metricsRow("FaceKit eye-open model (per eye)", metrics),
            "| baseline: eye aspect ratio >= 0.2 (per frame) | \(f3(earAUC)) (the ratio as a score) | \(f3(thresholdAccuracy)) | |",
            "| always \"open\" | | \(f3(alwaysOpen)) | |",
            "",
            "GENKI-4K held-out faces (other people, eyes open in nearly all): \(f3(othersOpen)) of "
                + "\(others.count) eyes read as open (probability >= 0.5).",
            "",
        ]
        lines += reliabilityTable(metrics)
        return lines.joined(separator: "\n")
    }

    /// The video eye model (each eye against its own recent level) on the held-out FOCUS video,
    /// next to the still-photo model on the same eyes, and the blinks each finds.
    static func videoEyes(model: LogisticModel, stillModel: LogisticModel, data: EyeData) -> String {
        let metrics = ClassifierMetrics(
            probabilities: data.videoHeldOut.map { model.probability($0.features) }, labels: data.videoHeldOut.map(\.label))
        let still = ClassifierMetrics(
            probabilities: data.heldOut.map { stillModel.probability($0.features) }, labels: data.heldOut.map(\.label))
        var found = BlinkCounter()
        var truth = BlinkCounter()
        var closures: [[Bool]] = []  // per labelled closure: whether each of its frames read as closed
        var previousClosed = false
        for frame in data.heldOutSequence {
            let probabilities = frame.features.map { $0.map { model.probability([$0]) } }
            found.record(leftEyeOpen: probabilities[0], rightEyeOpen: probabilities[1], timestampMs: frame.timestampMs)
            guard let closed = frame.closed else { continue }
            truth.record(leftEyeOpen: closed ? 0 : 1, rightEyeOpen: closed ? 0 : 1, timestampMs: frame.timestampMs)
            if closed {
                let readClosed = probabilities.compactMap { $0 }.max().map { $0 < 0.5 } ?? false
                if previousClosed { closures[closures.count - 1].append(readClosed) } else { closures.append([readClosed]) }
            }
            previousClosed = closed
        }
        let blinksSeen = closures.filter { $0.contains(true) }.count
        var lines = [
            "### Eyes open in video (FOCUS \(EyeData.heldOutVideo), held out; trained on \(EyeData.trainingVideos.joined(separator: ", ")))",
            "",
            "Each eye against its own level of the last \(Int(EyeOpenLevel.window / 1000)) s (EyeOpenLevel); "
                + "\(data.videoHeldOut.count) eye examples once the level is known.",
            "",
            "| model | ROC AUC | accuracy at 0.5 | Brier score |",
            "|---|---|---|---|",
            metricsRow("FaceKit video eye model (per eye)", metrics),
            metricsRow("still-photo eye model, same video (per eye)", still),
            "",
            "Blinks: \(truth.count) labelled; \(blinksSeen) of them read as closed in at least one frame; "
                + "BlinkCounter counts \(found.count).",
            "",
        ]
        lines += reliabilityTable(metrics)
        return lines.joined(separator: "\n")
    }

    /// A row of the "model | ROC AUC | accuracy at 0.5 | Brier score" tables.
    static func metricsRow(_ name: String, _ metrics: ClassifierMetrics) -> String {
        "| \(name) | \(f3(metrics.rocAUC)) | \(f3(metrics.accuracy())) | \(f3(metrics.brierScore)) |"
    }

    static func reliabilityTable(_ metrics: ClassifierMetrics) -> [String] {
        ["| predicted | faces | mean prediction | observed rate |", "|---|---|---|---|"]
            + metrics.reliability().map {
                "| \(f3($0.lower))-\(f3($0.upper)) | \($0.count) | \(f3($0.meanPrediction)) | \(f3($0.observedRate)) |"
            } + [""]
    }

    static func f3(_ value: Double) -> String { String(format: "%.3f", value) }
}
