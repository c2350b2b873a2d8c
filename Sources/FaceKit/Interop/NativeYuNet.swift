internal import CFaceKit
import Foundation

/// The YuNet face detector (`fk_yunet`): one network pass over a region of an image.
/// Not thread-safe (OpenCV's network keeps its activations): use one per thread.
final class NativeYuNet {
    /// One face as YuNet reports it, in pixels of the image searched.
    struct Face: Equatable {
        /// YuNet's own box convention (WIDER FACE: forehead to chin, ear to ear), not dlib's.
        var box: CGRect
        /// The subject's right eye, left eye, nose tip, right and left mouth corner.
        var keypoints: [CGPoint]
        /// Confidence in 0 ... 1.
        var score: Double
        /// Clockwise quarter turns of the pass that found the face (``SearchPass/quarterTurns``):
        /// the face stood upright in the image turned so.
        var quarterTurns = 0
        /// Clockwise degrees the image was turned by before that pass (``DiagonalView``): 0, or
        /// 45 for a face found in the diagonal view.
        var viewDegrees = 0.0

        /// The clockwise turn, in degrees, that brought the face upright for the pass that found it.
        var searchDegrees: Double { viewDegrees + 90 * Double(quarterTurns) }
    }

    private let pointer: OpaquePointer

    /// Runs `fk_yunet_create`: loads the ONNX file and checks it is YuNet.
    init(modelPath: String) throws(FaceKitError) {
        var created: OpaquePointer?
        try callNative(subject: modelPath) { fk_yunet_create(modelPath, &created, $0) }
        pointer = created!
    }

    deinit { fk_yunet_free(pointer) }

    /// Runs `fk_yunet_detect` once: `region` resized by `scale` (mirrored, then turned, first if
    /// the pass asks), faces scoring at least `minimumScore`, thinned by non-maximum suppression
    /// at `maximumOverlap`; best first, in the image's pixels.
    func detect(in image: FaceImage, pass: SearchPass, minimumScore: Double, maximumOverlap: Double)
        throws(FaceKitError) -> [Face]
    {
        try callNativeCollecting(subject: "face detection", capacity: 64, empty: fk_yunet_face()) { out, capacity, count, error in
            fk_yunet_detect(
                pointer, image.handle.pointer, fk_rect(pass.region), Float(pass.scale), pass.isMirrored ? 1 : 0,
                Int32(pass.quarterTurns), Float(minimumScore), Float(maximumOverlap), out, capacity, count, error)
        }.map { native in
            var face = Face(native)
            face.quarterTurns = pass.quarterTurns
            return face
        }
    }
}

extension NativeYuNet.Face {
    init(_ native: fk_yunet_face) {
        box = CGRect(
            x: Double(native.box.x), y: Double(native.box.y), width: Double(native.box.width),
            height: Double(native.box.height))
        keypoints = withUnsafeBytes(of: native.keypoints) { raw in
            raw.bindMemory(to: fk_point.self).map { CGPoint(x: Double($0.x), y: Double($0.y)) }
        }
        score = Double(native.score)
    }
}
