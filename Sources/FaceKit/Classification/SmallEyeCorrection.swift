import Foundation

/// The eye-state network's probability made honest for small eyes.
///
/// The network's calibration is fitted on photos whose outer eye corners are mostly over 24 px
/// apart. Below that an eye is a few pixels wide, and the network, saved JPEG and all, reads
/// closed eyes as open more often than open ones as closed and is surer than it is right; this
/// correction moves its log-odds `z` to
/// `z + u (alpha z + beta)`, `u = log2(24 / distance)`, which is `z` itself from 24 px up.
/// `facekit-train small-eyes` fits `alpha` and `beta` on the network's test split shrunk to
/// 12-24 px and prints the before-and-after table of docs/accuracy.md ("Small eyes").
package struct SmallEyeCorrection: Sendable {
    /// The distance from which the network's own probability stands.
    package static let fullSizeDistance = 24.0

    package var alpha: Double
    package var beta: Double

    package init(alpha: Double, beta: Double) {
        self.alpha = alpha
        self.beta = beta
    }

    /// Fitted by `facekit-train small-eyes` on the faces saved as JPEG (docs/accuracy.md, "Small
    /// eyes"): at 16 px it scales the log-odds by 0.75 and moves them 0.2 toward closed.
    package static let fitted = SmallEyeCorrection(alpha: -0.4257, beta: -0.3379)

    /// How far below full size an eye is: 0 from 24 px up, 1 at 12 px, 2 at 6 px.
    package static func smallness(_ interOcularDistance: Double) -> Double {
        max(0, log2(fullSizeDistance / max(interOcularDistance, 1)))
    }

    /// `probability` (the network's) for an eye of a face whose outer eye corners are
    /// `interOcularDistance` pixels apart.
    package func corrected(_ probability: Double, interOcularDistance: Double) -> Double {
        let u = Self.smallness(interOcularDistance)
        guard u > 0 else { return probability }
        let z = LogisticModel.logOdds(probability)
        return 1 / (1 + exp(-(z + u * (alpha * z + beta))))
    }
}
