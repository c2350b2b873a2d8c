internal import CFaceKit
import Foundation

/// dlib's MMOD CNN face detector (`fk_mmod_detector`, mmod_human_face_detector.dat).
/// Not thread-safe (dlib's network keeps its activations): use one per thread.
///
/// ```swift
/// let cnn = try NativeMMODDetector(modelPath: try ModelLocator().path(for: .cnnFaceDetector))
/// try cnn.detect(in: view, threshold: 0, levels: 3).first?.score   // 1.04
/// ```
final class NativeMMODDetector {
    /// One face: its box in the pixels of the image searched, and the network's confidence.
    struct Detection: Equatable {
        var box: CGRect
        var score: Double
    }

    private let pointer: OpaquePointer

    /// Runs `fk_mmod_detector_create`: reads the file and checks it is this network.
    init(modelPath: String) throws(FaceKitError) {
        var created: OpaquePointer?
        try callNative(subject: modelPath) { fk_mmod_detector_create(modelPath, &created, $0) }
        pointer = created!
    }

    deinit { fk_mmod_detector_free(pointer) }

    /// Runs `fk_mmod_detector_detect`: the faces in `image` whose confidence is at least
    /// `threshold`, best first, searched over the first `levels` levels of dlib's image pyramid
    /// (each 5/6 of the last), or over all of them when `levels` is 0.
    func detect(in image: FaceImage, threshold: Double, levels: Int = 0) throws(FaceKitError) -> [Detection] {
        try callNativeCollecting(subject: "CNN face check", capacity: 16, empty: fk_detection()) { out, capacity, count, error in
            fk_mmod_detector_detect(pointer, image.nativeHandle, Float(threshold), Int32(levels), out, capacity, count, error)
        }.map { Detection($0) }
    }
}

extension NativeMMODDetector.Detection {
    init(_ native: fk_detection) {
        box = CGRect(
            x: Double(native.box.x), y: Double(native.box.y), width: Double(native.box.width),
            height: Double(native.box.height))
        score = Double(native.score)
    }
}
