internal import CFaceKit
internal import CFaceKitTools
import FaceKit
import Foundation

/// OpenCV's cascade classifier (`fk_cascade`), loaded from one of OpenCV's XML files.
/// Not thread-safe: use one per thread.
///
/// Not used by analysis: it serves ``HaarSmileBaseline``, the smile baseline of docs/accuracy.md,
/// so it and its shim (CFaceKitTools, the only code that links OpenCV's objdetect) live with the
/// tools. It reaches the shim as FaceKit's Interop does: FaceImage's handle and `callNative`,
/// both `package`.
package final class NativeCascade {
    private let pointer: OpaquePointer

    /// Runs `fk_cascade_create`.
    package init(path: String) throws(FaceKitError) {
        var created: OpaquePointer?
        try callNative(subject: path) { fk_cascade_create(path, &created, $0) }
        pointer = created!
    }

    deinit { fk_cascade_free(pointer) }

    /// Runs `fk_cascade_best_neighbours`: the size of the largest group of raw detections in
    /// `region` (grey, equalised), 0 when there are none.
    package func bestNeighbours(in image: FaceImage, region: CGRect, scaleFactor: Double = 1.1) throws(FaceKitError) -> Int {
        var neighbours: Int32 = 0
        let rect = fk_rect(region)
        try callNative(subject: "cascade detection") {
            fk_cascade_best_neighbours(pointer, image.nativeHandle, rect, Float(scaleFactor), &neighbours, $0)
        }
        return Int(neighbours)
    }
}
