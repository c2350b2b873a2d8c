import Foundation

/// Whether a face smiles, read from how its mouth looks: the mean of three small convolutional
/// networks (FaceKit's `smile.onnx`, one graph, trained by `scripts/train-smile-model` on GENKI-4K
/// and SMILEsmileD faces, docs/accuracy.md "Smile") over the mouth's grey patch (``MouthPatch``),
/// ``side`` pixels square and ``widthInEyeDistances`` outer-eye-corner distances across.
///
/// Its output is calibrated (``CalibratedPatchNetwork``): the probability of a smile.
package final class SmileModel: Sendable {
    /// The patch's side in pixels, as the network was trained.
    package static let side = 32
    /// The patch's side in outer-eye-corner distances.
    package static let widthInEyeDistances = 1.0

    private let network: CalibratedPatchNetwork

    package init(modelPath: String) throws(FaceKitError) {
        network = try CalibratedPatchNetwork(modelPath: modelPath, side: Self.side)
    }

    /// The network's input for a face: its mouth's patch, or `nil` when the points are degenerate.
    package static func patch(shape: FaceShape, in image: FaceImage) throws(FaceKitError) -> [UInt8]? {
        try MouthPatch.cut(shape: shape, in: image, side: side, widthInEyeDistances: widthInEyeDistances)
    }

    /// The probability that each patch's face smiles, in one pass.
    package func smilingProbabilities(_ patches: [[UInt8]]) throws(FaceKitError) -> [Double] {
        try network.probabilities(patches)
    }
}
