import CFaceKit
import FaceKitTestSupport
import Foundation
import Testing

/// `fk_mmod_detector`: dlib's CNN face detector, the photo search's third look.
@Suite("CFaceKit: dlib's CNN face detector", .needsModels)
struct MMODDetectorTests {
    /// The faces the network finds in `image` at `threshold`, and the call's status.
    static func detect(_ detector: OpaquePointer, _ image: OpaquePointer, threshold: Float = 0, levels: Int32 = 0)
        -> (call: NativeCall, faces: [fk_detection])
    {
        var faces = [fk_detection](repeating: fk_detection(), count: 8)
        var count: Int32 = 0
        let call = NativeCall { fk_mmod_detector_detect(detector, image, threshold, levels, &faces, 8, &count, $0) }
        return (call, Array(faces.prefix(Int(min(count, 8)))))
    }

    @Test("finds the astronaut's face where YuNet does, best first")
    func findsTheFace() throws {
        var detector: OpaquePointer?, yunet: OpaquePointer?, image: OpaquePointer?
        #expect(NativeCall { fk_mmod_detector_create(NativeInputs.mmod, &detector, $0) }.status == FK_OK.code)
        #expect(NativeCall { fk_yunet_create(NativeInputs.yunet, &yunet, $0) }.status == FK_OK.code)
        #expect(NativeCall { fk_image_create_from_file(NativeInputs.photo, 0, &image, $0) }.status == FK_OK.code)
        defer { fk_mmod_detector_free(detector); fk_yunet_free(yunet); fk_image_free(image) }
        let (call, faces) = Self.detect(try #require(detector), try #require(image))
        #expect(call.status == FK_OK.code && call.recordUntouched)
        try #require(faces.count == 1, "\(faces.count) faces")
        var width: Int32 = 0, height: Int32 = 0
        fk_image_get_size(image, &width, &height, nil)
        var found = [fk_yunet_face](repeating: fk_yunet_face(), count: 4)
        var count: Int32 = 0
        let whole = fk_rect(x: 0, y: 0, width: Float(width), height: Float(height))
        #expect(fk_yunet_detect(yunet, image, whole, 1, 0, 0, 0.5, 0.3, &found, 4, &count, nil) == FK_OK.code)
        try #require(count == 1)
        let (a, b) = (faces[0].box, found[0].box)
        #expect(abs((a.x + a.width / 2) - (b.x + b.width / 2)) < 0.2 * b.width, "\(a) against YuNet's \(b)")
        #expect(abs((a.y + a.height / 2) - (b.y + b.height / 2)) < 0.3 * b.height, "\(a) against YuNet's \(b)")
        #expect(a.width > 0.5 * b.width && a.width < 1.5 * b.width, "\(a) against YuNet's \(b)")
        // A lower threshold reports more, best first, the same best.
        let lower = Self.detect(detector!, image!, threshold: -1).faces
        // (BLAS may sum in another order from run to run: the same score to rounding.)
        #expect(lower.count >= faces.count && abs(lower[0].score - faces[0].score) < 1e-3, "\(lower) against \(faces)")
        #expect(zip(lower, lower.dropFirst()).allSatisfy { $0.score >= $1.score })
    }

    @Test("the pyramid's levels searched one by one find what dlib's own pyramid finds")
    func levelsAgainstThePyramid() throws {
        var detector: OpaquePointer?, image: OpaquePointer?
        #expect(NativeCall { fk_mmod_detector_create(NativeInputs.mmod, &detector, $0) }.status == FK_OK.code)
        #expect(NativeCall { fk_image_create_from_file(NativeInputs.photo, 0, &image, $0) }.status == FK_OK.code)
        defer { fk_mmod_detector_free(detector); fk_image_free(image) }
        // dlib's own pyramid (0), the reference, against every level searched alone (32).
        let reference = Self.detect(try #require(detector), try #require(image)).faces
        let levels = Self.detect(detector!, image!, levels: 32)
        #expect(levels.call.status == FK_OK.code)
        try #require(reference.count == 1 && levels.faces.count == 1, "\(reference) against \(levels.faces)")
        let (a, b) = (levels.faces[0], reference[0])
        // The levels are the pyramid's own images; their tiling differs (the network's 8 px
        // stride falls elsewhere): the same box within a tenth of its side.
        let side = b.box.width
        #expect(abs(a.box.x - b.box.x) < 0.1 * side && abs(a.box.y - b.box.y) < 0.1 * side, "\(a) against \(b)")
        #expect(abs(a.box.width - side) < 0.1 * side, "\(a) against \(b)")
        #expect(abs(a.score - b.score) < 0.05, "\(a.score) against \(b.score)")
        #expect(Self.detect(detector!, image!, levels: 33).call.status == FK_INVALID_ARGUMENT.code)
    }

    @Test("another dlib model in its place is refused, naming the file")
    func anotherModel() {
        for other in [NativeInputs.faceDescriptor, NativeInputs.landmarks68] {
            var detector: OpaquePointer?
            let call = NativeCall { fk_mmod_detector_create(other, &detector, $0) }
            fk_mmod_detector_free(detector)
            #expect(call.status == FK_MODEL_UNAVAILABLE.code && detector == nil)
            #expect(call.message.hasPrefix("\(other) is not dlib's MMOD face detector: "), "\(call.message)")
        }
    }

    @Test("an image over FK_MMOD_MAX_PIXELS and a threshold that is not finite are refused")
    func limits() throws {
        var detector: OpaquePointer?
        #expect(NativeCall { fk_mmod_detector_create(NativeInputs.mmod, &detector, $0) }.status == FK_OK.code)
        defer { fk_mmod_detector_free(detector) }
        let large = try #require(NativeInputs.image(width: 4097, height: 4096))
        let small = try #require(NativeInputs.image())
        defer { fk_image_free(large); fk_image_free(small) }
        #expect(Self.detect(detector!, large).call.status == FK_INVALID_ARGUMENT.code)
        #expect(Self.detect(detector!, small, threshold: .nan).call.status == FK_INVALID_ARGUMENT.code)
        let grey = Self.detect(detector!, small)
        #expect(grey.call.status == FK_OK.code && grey.faces.isEmpty)
    }
}
