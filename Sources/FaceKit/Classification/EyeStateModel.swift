import Foundation
import Synchronization

/// Whether an eye is open, read from how it looks: a small convolutional network (FaceKit's
/// `eye_state.onnx`, trained by `scripts/train-eye-model` on eyes of many people,
/// docs/accuracy.md "Eyes open") over the eye's grey patch (``EyePatch``), ``side`` pixels square
/// and ``widthInEyes`` eye widths across, which takes in the lids, the lashes and the brow.
///
/// The network's logit is calibrated at training (its last layer carries the scaling fitted on
/// held-out sets), so its sigmoid is the probability that the eye is open. Each detector (each
/// worker) has its own: OpenCV's network keeps its activations, so one pass at a time.
package final class EyeStateModel: Sendable {
    /// The patch's side in pixels, as the network was trained.
    package static let side = 32
    /// The patch's side in eye widths (corner to corner).
    package static let widthInEyes = 1.8

    private let network: Mutex<NativePatchClassifier>

    package init(modelPath: String) throws(FaceKitError) {
        network = Mutex(try NativePatchClassifier(modelPath: modelPath, side: Self.side))
    }

    /// The network's input for `eye`: its patch, or `nil` when the eye's points are degenerate.
    package static func patch(of eye: EyeFeatures.Eye, shape: FaceShape, in image: FaceImage) throws(FaceKitError)
        -> [UInt8]?
    {
        try EyePatch.cut(
            eye, shape: shape, in: image, width: side, height: side, widthInEyes: widthInEyes, heightInEyes: widthInEyes)
    }

    /// The probability that each patch's eye is open, in one pass.
    package func openProbabilities(_ patches: [[UInt8]]) throws(FaceKitError) -> [Double] {
        let logits = try network.withLock { network throws(FaceKitError) in try network.logits(of: patches) }
        return logits.map { 1 / (1 + exp(-Double($0))) }
    }
}
