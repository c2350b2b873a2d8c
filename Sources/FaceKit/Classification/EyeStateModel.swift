import Foundation

/// Whether an eye is open, read from how it looks: a small convolutional network (FaceKit's
/// `eye_state.onnx`, trained by `scripts/train-eye-model` on eyes of many people,
/// docs/accuracy.md "Eyes open") over the eye's grey patch (``EyePatch``), ``side`` pixels square
/// and ``widthInEyes`` eye widths across, which takes in the lids, the lashes and the brow.
///
/// Its output is calibrated (``CalibratedPatchNetwork``): the probability that the eye is open.
package final class EyeStateModel: Sendable {
    /// The patch's side in pixels, as the network was trained.
    package static let side = 32
    /// The patch's side in eye widths (corner to corner).
    package static let widthInEyes = 1.8

    /// The name of the network's ONNX graph, which `scripts/eye_model.py` gives it: a file whose
    /// graph is named otherwise (the smile network, of the same shapes) is refused before use.
    package static let graphName = "facekit_eye_state"

    private let network: CalibratedPatchNetwork

    package init(modelPath: String) throws(FaceKitError) {
        network = try CalibratedPatchNetwork(modelPath: modelPath, graphName: Self.graphName, side: Self.side)
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
        try network.probabilities(patches)
    }
}
