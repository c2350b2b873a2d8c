internal import CFaceKit
import Foundation

/// dlib's shape_predictor (`fk_shape_predictor`), e.g. the 68-point iBUG 300-W model.
/// Safe to share between threads.
final class NativeShapePredictor: @unchecked Sendable {
    private let pointer: OpaquePointer
    let pointCount: Int

    /// Runs `fk_shape_predictor_create` and reads the model's point count (releasing the model
    /// again when that fails). With `cacheFolder`, the model's flat copy there is mapped instead
    /// when it is there and sound, or written (``ModelCache``).
    init(modelPath: String, cacheFolder: String? = nil) throws(FaceKitError) {
        var created: OpaquePointer?
        try callNative(subject: modelPath) { fk_shape_predictor_create(modelPath, cacheFolder, &created, $0) }
        var count: Int32 = 0
        do {
            try callNative(subject: modelPath) { fk_shape_predictor_point_count(created, &count, $0) }
        } catch {
            fk_shape_predictor_free(created)
            throw error
        }
        pointer = created!
        pointCount = Int(count)
    }

    deinit { fk_shape_predictor_free(pointer) }

    /// The model's points for the face in `box`.
    func points(in image: FaceImage, box: CGRect) throws(FaceKitError) -> [CGPoint] {
        try points(in: image, boxes: [box])[0]
    }

    /// Runs `fk_shape_predictor_predict`: the model's points for the face in each of `boxes`
    /// (several are placed in parallel).
    func points(in image: FaceImage, boxes: [CGRect]) throws(FaceKitError) -> [[CGPoint]] {
        guard !boxes.isEmpty else { return [] }
        var buffer = [fk_point](repeating: fk_point(), count: pointCount * boxes.count)
        let rects = boxes.map(fk_rect.init)
        try callNative(subject: "landmark prediction") {
            fk_shape_predictor_predict(
                pointer, image.handle.pointer, rects, Int32(rects.count), &buffer, Int32(buffer.count), $0)
        }
        return (0..<boxes.count).map { face in
            buffer[face * pointCount..<(face + 1) * pointCount].map { CGPoint(x: Double($0.x), y: Double($0.y)) }
        }
    }
}
