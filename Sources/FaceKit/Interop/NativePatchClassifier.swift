internal import CFaceKit
import Foundation

/// A small ONNX network over square grey patches (`fk_patch_classifier`): one logit per patch.
/// The eye-state and smile models (``EyeStateModel``, ``SmileModel``) are. Not thread-safe (OpenCV's network keeps its
/// activations): use one per thread.
///
/// ```swift
/// let net = try NativePatchClassifier(modelPath: "eye_state.onnx", graphName: "facekit_eye_state", side: 32)
/// try net.logits(of: [patch]).count   // 1
/// ```
final class NativePatchClassifier {
    /// The patches' side in pixels.
    let side: Int
    /// The network's file name, for errors.
    let name: String
    private let pointer: OpaquePointer

    /// Runs `fk_patch_classifier_create`: loads the network, checks that its ONNX graph is named
    /// `graphName` (so that another network of the same shapes is refused by name) and that it
    /// takes `side` x `side`.
    init(modelPath: String, graphName: String, side: Int) throws(FaceKitError) {
        var created: OpaquePointer?
        try callNative(subject: modelPath) {
            fk_patch_classifier_create(modelPath, graphName, Int32(side), &created, $0)
        }
        pointer = created!
        self.side = side
        name = URL(fileURLWithPath: modelPath).lastPathComponent
    }

    deinit { fk_patch_classifier_free(pointer) }

    /// Runs `fk_patch_classifier_run` once on all `patches` (each `side` x `side` bytes).
    func logits(of patches: [[UInt8]]) throws(FaceKitError) -> [Float] {
        guard !patches.isEmpty else { return [] }
        precondition(patches.allSatisfy { $0.count == side * side }, "NativePatchClassifier: wrong patch size")
        let packed = Array(patches.joined())
        var logits = [Float](repeating: 0, count: patches.count)
        try callNative(subject: name) {
            fk_patch_classifier_run(pointer, packed, Int32(patches.count), &logits, $0)
        }
        return logits
    }
}
