import Foundation

/// Whether a face smiles, read from how its mouth looks and how it is shaped: the mean of five
/// small convolutional networks (FaceKit's `smile.onnx`, one graph, trained by
/// `scripts/train-smile-model` on GENKI-4K and SMILEsmileD faces, docs/accuracy.md "Smile
/// network") over the mouth's grey patch (``MouthPatch``), ``side`` pixels square and
/// ``widthInEyeDistances`` outer-eye-corner distances across, and over its mirror image, blended
/// with the geometric model over the 68 points (``SmileFeatures``): appearance and geometry err on
/// different faces, and the blend ranked the training part's folds better than the networks alone.
///
/// Its output is calibrated (``CalibratedPatchNetwork``, and the blend's weight fitted with the
/// calibration): the probability of a smile.
package final class SmileModel: Sendable {
    /// The patch's side in pixels, as the network was trained.
    package static let side = 32
    /// The patch's side in outer-eye-corner distances.
    package static let widthInEyeDistances = 1.0

    /// The name of the network's ONNX graph, which `scripts/smile_model.py` gives it: a file whose
    /// graph is named otherwise (the eye-state network, of the same shapes) is refused before use.
    package static let graphName = "facekit_smile"

    private let network: CalibratedPatchNetwork

    package init(modelPath: String) throws(FaceKitError) {
        network = try CalibratedPatchNetwork(modelPath: modelPath, graphName: Self.graphName, side: Self.side)
    }

    /// The network's input for a face: its mouth's patch, or `nil` when the points are degenerate.
    package static func patch(shape: FaceShape, in image: FaceImage) throws(FaceKitError) -> [UInt8]? {
        try MouthPatch.cut(shape: shape, in: image, side: side, widthInEyeDistances: widthInEyeDistances)
    }

    /// The probability that each face smiles, in one pass, from its mouth's patch and its
    /// ``SmileFeatures``: the network's calibrated logit (with ``readsMirrorImage``, the mean of
    /// its readings of the patch and of its mirror image) plus ``geometricLogitWeight`` times the
    /// geometric model's (``ClassifierWeights/smile``), calibrated together. Both constants are
    /// the training's choice (`SmileModel+Trained.swift`, written with the network).
    package func smilingProbabilities(patches: [[UInt8]], features: [[Double]]) throws(FaceKitError) -> [Double] {
        precondition(patches.count == features.count, "SmileModel: one feature vector per patch")
        let readings = try network.logits(Self.readsMirrorImage ? patches + patches.map(Self.mirrored) : patches)
        return features.indices.map { i in
            let networkLogit = Self.readsMirrorImage ? (readings[i] + readings[patches.count + i]) / 2 : readings[i]
            let z = networkLogit + Self.geometricLogitWeight * ClassifierWeights.smile.logit(features[i])
            return 1 / (1 + exp(-z))
        }
    }

    /// A ``side`` x ``side`` patch flipped left to right.
    static func mirrored(_ patch: [UInt8]) -> [UInt8] {
        (0..<side).flatMap { row in patch[(row * side)..<((row + 1) * side)].reversed() }
    }
}
