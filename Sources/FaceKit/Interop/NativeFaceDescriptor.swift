internal import CFaceKit
import Foundation

/// dlib's ResNet face descriptor (`fk_face_descriptor`, dlib_face_recognition_resnet_model_v1):
/// 128 numbers per face, closer than about 0.6 (Euclidean) for two photos of the same person.
/// Not thread-safe (dlib's network keeps its activations): use one per thread.
///
/// ```swift
/// let net = try NativeFaceDescriptor(modelPath: try ModelLocator().path(for: .faceDescriptor))
/// try net.descriptor(in: image, shape: shape).count   // 128
/// ```
final class NativeFaceDescriptor {
    /// Values in one descriptor.
    static let length = Int(FK_FACE_DESCRIPTOR_LENGTH)

    private let pointer: OpaquePointer

    /// Runs `fk_face_descriptor_create`.
    init(modelPath: String) throws(FaceKitError) {
        var created: OpaquePointer?
        try callNative(subject: modelPath) { fk_face_descriptor_create(modelPath, &created, $0) }
        pointer = created!
    }

    private init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// A network not yet owned by any thread, to be handed to one (the compiler cannot tell
    /// that a copy shares nothing with its original).
    struct Unowned: @unchecked Sendable {
        let network: NativeFaceDescriptor
    }

    /// Runs `fk_face_descriptor_copy`: the same network for another thread, without reading the
    /// file again; the copy shares nothing with this one. Not while this one is computing.
    func copy() throws(FaceKitError) -> Unowned {
        var created: OpaquePointer?
        try callNative(subject: "face descriptor") { fk_face_descriptor_copy(pointer, &created, $0) }
        return Unowned(network: NativeFaceDescriptor(pointer: created!))
    }

    deinit { fk_face_descriptor_free(pointer) }

    /// Runs `fk_face_descriptor_compute`: the descriptor of the face whose 68 points are `shape`,
    /// aligned as dlib's `get_face_chip_details(shape, 150, 0.25)`.
    func descriptor(in image: FaceImage, shape: FaceShape) throws(FaceKitError) -> [Float] {
        let points = shape.points.map { fk_point(x: Float($0.x), y: Float($0.y)) }
        var values = [Float](repeating: 0, count: Self.length)
        try callNative(subject: "face descriptor") {
            fk_face_descriptor_compute(pointer, image.handle.pointer, points, Int32(points.count), &values, $0)
        }
        return values
    }
}
