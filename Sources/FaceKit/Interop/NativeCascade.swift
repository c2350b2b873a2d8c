internal import CFaceKit
import Foundation

/// OpenCV's cascade classifier (`fk_cascade`), loaded from one of OpenCV's XML files.
/// Not thread-safe: use one per thread.
///
/// Not used by analysis: it serves `HaarSmileBaseline` (FaceKitDatasets), the smile baseline of
/// docs/accuracy.md. It stays here behind `@_spi(Training)` because only FaceKit's Interop
/// crosses the C boundary (FaceImage's handle, `callNative`).
@_spi(Training) public final class NativeCascade {
    private let pointer: OpaquePointer

    /// Runs `fk_cascade_create`.
    public init(path: String) throws(FaceKitError) {
        var created: OpaquePointer?
        try callNative(subject: path) { fk_cascade_create(path, &created, $0) }
        pointer = created!
    }

    deinit { fk_cascade_free(pointer) }

    /// Runs `fk_cascade_best_neighbours`: the size of the largest group of raw detections in
    /// `region` (grey, equalised), 0 when there are none.
    public func bestNeighbours(in image: FaceImage, region: CGRect, scaleFactor: Double = 1.1) throws(FaceKitError) -> Int {
        var neighbours: Int32 = 0
        let rect = fk_rect(region)
        try callNative(subject: "cascade detection") {
            fk_cascade_best_neighbours(pointer, image.handle.pointer, rect, Float(scaleFactor), &neighbours, $0)
        }
        return Int(neighbours)
    }
}
