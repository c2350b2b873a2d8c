internal import CFaceKit
internal import CFaceKitTools
import FaceKit
import Foundation

/// dlib's face descriptor through dlib's own convolution layer (`fk_dlib_face_descriptor`): the
/// reference that FaceKit's faster network (the runtime's `fk_face_descriptor`) is checked
/// against, value for value. Not thread-safe: use one per thread.
package final class DlibFaceDescriptor {
    private let pointer: OpaquePointer

    /// Reads dlib_face_recognition_resnet_model_v1.dat at `modelPath`.
    package init(modelPath: String) throws(FaceKitError) {
        var created: OpaquePointer?
        try callNative(subject: modelPath) { fk_dlib_face_descriptor_create(modelPath, &created, $0) }
        pointer = created!
    }

    deinit { fk_dlib_face_descriptor_free(pointer) }

    /// The 128 values of the face whose 68 (or 5) points are `points` in `image`.
    package func descriptor(in image: FaceImage, points: [CGPoint]) throws(FaceKitError) -> [Float] {
        let native = points.map { fk_point(x: Float($0.x), y: Float($0.y)) }
        var values = [Float](repeating: 0, count: Int(FK_FACE_DESCRIPTOR_LENGTH))
        try callNative(subject: "face descriptor") {
            fk_dlib_face_descriptor_compute(pointer, image.nativeHandle, native, Int32(native.count), &values, $0)
        }
        return values
    }
}
