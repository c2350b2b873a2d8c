import Foundation
import Synchronization

/// A small convolutional network over grey patches whose logit was calibrated at training (its
/// last layer carries the Platt scaling fitted on held-out scores), so that its sigmoid is a
/// probability: the eye-state network (``EyeStateModel``) and the smile network (``SmileModel``).
/// OpenCV's network keeps its activations, so passes run one at a time; each detector (each
/// worker) has its own.
package final class CalibratedPatchNetwork: Sendable {
    private let network: Mutex<NativePatchClassifier>

    /// Loads the ONNX network at `modelPath`, whose graph must be named `graphName` (what its
    /// training script names it) and whose input is a `side` x `side` grey patch.
    package init(modelPath: String, graphName: String, side: Int) throws(FaceKitError) {
        network = Mutex(try NativePatchClassifier(modelPath: modelPath, graphName: graphName, side: side))
    }

    /// The probability each patch stands for, in one pass.
    package func probabilities(_ patches: [[UInt8]]) throws(FaceKitError) -> [Double] {
        try logits(patches).map { 1 / (1 + exp(-$0)) }
    }

    /// The calibrated log-odds behind ``probabilities(_:)``, for blending with another model's.
    package func logits(_ patches: [[UInt8]]) throws(FaceKitError) -> [Double] {
        try network.withLock { network throws(FaceKitError) in try network.logits(of: patches) }.map(Double.init)
    }
}
