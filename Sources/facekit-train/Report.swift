import FaceKit
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
