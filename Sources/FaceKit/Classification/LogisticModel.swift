import Foundation

// `package` (the tools see it, users of the library do not): facekit-train fits new weights into
// the runtime's own model type and writes them as ClassifierWeights.swift; no user of the library
// needs it.

/// A logistic regression on standardised features: the small learned model behind each
/// probability. Its output is a calibrated probability when the training data's base rate
/// matches the use's. facekit-train fits it (`LogisticModel.fit` in FaceKitDatasets).
///
/// ```swift
/// let model = LogisticModel(means: [0.3], scales: [0.05], weights: [4], bias: 2)
/// model.probability([0.3])   // 0.88
/// ```
package struct LogisticModel: Sendable, Equatable {
    package var means: [Double]
    package var scales: [Double]
    package var weights: [Double]
    package var bias: Double

    package init(means: [Double], scales: [Double], weights: [Double], bias: Double) {
        precondition(means.count == weights.count && scales.count == weights.count, "LogisticModel: sizes differ")
        self.means = means
        self.scales = scales
        self.weights = weights
        self.bias = bias
    }

    package func probability(_ features: [Double]) -> Double {
        1 / (1 + exp(-logit(features)))
    }

    /// The log-odds of `probability`, bounded so that a probability of exactly 0 or 1 stays
    /// finite (at about -13.8 and 13.8).
    package static func logOdds(_ probability: Double) -> Double {
        let p = min(max(probability, 1e-6), 1 - 1e-6)
        return log(p / (1 - p))
    }

    /// The log-odds behind ``probability(_:)``, for blending with another model's.
    package func logit(_ features: [Double]) -> Double {
        precondition(features.count == weights.count, "LogisticModel.logit: \(weights.count) features expected")
        var z = bias
        for i in features.indices { z += weights[i] * (features[i] - means[i]) / scales[i] }
        return z
    }
}
