internal import CFaceKit
import Foundation

/// dlib's shape_predictor (`fk_shape_predictor`), e.g. the 68-point iBUG 300-W model.
/// Safe to share between threads.
final class NativeShapePredictor: @unchecked Sendable {
    private let pointer: OpaquePointer
    let pointCount: Int

    /// Runs `fk_shape_predictor_create` and reads the model's point count.
    init(modelPath: String) throws(FaceKitError) {
        var created: OpaquePointer?
        try callNative(subject: modelPath) { fk_shape_predictor_create(modelPath, &created, $0) }
        pointer = created!
        var count: Int32 = 0
        try callNative(subject: modelPath) { fk_shape_predictor_point_count(created, &count, $0) }
        pointCount = Int(count)
    }

    deinit { fk_shape_predictor_free(pointer) }

    /// Runs `fk_shape_predictor_predict`: the model's points for the face in `box`.
    func points(in image: FaceImage, box: CGRect) throws(FaceKitError) -> [CGPoint] {
        var buffer = [fk_point](repeating: fk_point(), count: pointCount)
        var count: Int32 = 0
        let rect = fk_rect(box)
        try callNative(subject: "landmark prediction") {
            fk_shape_predictor_predict(pointer, image.handle.pointer, rect, &buffer, Int32(pointCount), &count, $0)
        }
        return buffer.prefix(Int(count)).map { CGPoint(x: Double($0.x), y: Double($0.y)) }
    }
}
