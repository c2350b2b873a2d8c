internal import CFaceKit
internal import CFaceKitTools
import FaceKit
import Foundation

/// One of dlib's face detectors (`fk_detector`). Not thread-safe: use one per thread.
///
/// Not used by analysis: it serves ``DlibFaceFinder``, dlib's former detectors that
/// facekit-evaluate measures YuNet against, so it and its shim (CFaceKitTools) live with the
/// tools. It reaches the shim as FaceKit's Interop does: FaceImage's handle and `callNative`, both
/// `package`.
package final class NativeDlibDetector {
    package enum Kind: Int32 {
        /// dlib's frontal_face_detector (HOG + linear SVM), 80x80 px window.
        case hog = 0
        /// dlib's MMOD CNN (mmod_human_face_detector.dat), about 80x80 px smallest face.
        case cnn = 1
    }

    package struct Detection: Sendable {
        package var box: CGRect
        package var score: Double

        package init(box: CGRect, score: Double) {
            self.box = box
            self.score = score
        }
    }

    private let pointer: OpaquePointer

    /// Runs `fk_detector_create`. `modelPath` is needed for `.cnn` only.
    package init(kind: Kind, modelPath: String?) throws(FaceKitError) {
        var created: OpaquePointer?
        try callNative(subject: modelPath ?? "HOG detector") { fk_detector_create(kind.rawValue, modelPath, &created, $0) }
        pointer = created!
    }

    deinit { fk_detector_free(pointer) }

    /// Runs `fk_detector_detect_above` on the image resized by `scale`; boxes are in unscaled
    /// pixels, highest score first. `threshold` moves the threshold on the detector's margin (HOG's
    /// SVM margin, the CNN's confidence) from dlib's 0. Room for `capacity` detections is made
    /// first (``callNativeCollecting(subject:capacity:empty:_:)``).
    package func detect(in image: FaceImage, scale: Double, threshold: Double = 0, capacity: Int = 1024)
        throws(FaceKitError) -> [Detection]
    {
        try callNativeCollecting(subject: "face detection", capacity: capacity, empty: fk_detection()) { out, capacity, count, error in
            fk_detector_detect_above(pointer, image.nativeHandle, Float(scale), Float(threshold), out, capacity, count, error)
        }.map {
            Detection(
                box: CGRect(x: Double($0.box.x), y: Double($0.box.y), width: Double($0.box.width), height: Double($0.box.height)),
                score: Double($0.score))
        }
    }
}
