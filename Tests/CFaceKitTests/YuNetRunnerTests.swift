import CFaceKit
import FaceKitTestSupport
import Foundation
import Testing

/// YuNet through the shim's own network runner (small_cnn.cpp), which reads the ONNX file itself.
@Suite("YuNet's network runner")
struct YuNetRunnerTests {
    static let smallYuNet = TestData.repository
        .appendingPathComponent("Sources/FaceKit/BundledModels/yunet_s_320_320.onnx").path

    /// The faces one network finds in the astronaut photo, in one pass over the whole image.
    static func faces(model: String) throws -> [fk_yunet_face] {
        var yunet: OpaquePointer?
        let created = NativeCall { fk_yunet_create(model, &yunet, $0) }
        try #require(created.status == FK_OK.code, "\(model): \(created.message)")
        defer { fk_yunet_free(yunet) }
        var image: OpaquePointer?
        let decoded = NativeCall { fk_image_create_from_file(NativeInputs.photo, 0, &image, $0) }
        try #require(decoded.status == FK_OK.code, "\(decoded.message)")
        defer { fk_image_free(image) }
        var width: Int32 = 0, height: Int32 = 0
        _ = fk_image_get_size(image, &width, &height, nil)
        var found = [fk_yunet_face](repeating: fk_yunet_face(), count: 8)
        var count: Int32 = 0
        let region = fk_rect(x: 0, y: 0, width: Float(width), height: Float(height))
        let ran = NativeCall { fk_yunet_detect(yunet, image, region, 1, 0, 0, 0.6, 0.3, &found, 8, &count, $0) }
        try #require(ran.status == FK_OK.code, "\(ran.message)")
        return Array(found.prefix(Int(count)))
    }

    static func overlap(_ a: fk_rect, _ b: fk_rect) -> Float {
        let w = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
        let h = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        guard w > 0, h > 0 else { return 0 }
        return w * h / (a.width * a.height + b.width * b.height - w * h)
    }

    @Test("both shipped YuNets (two different graphs) run and find the astronaut's one face in the same place")
    func bothShippedNetworksFindTheFace() throws {
        let n = try Self.faces(model: NativeInputs.yunet)
        let s = try Self.faces(model: Self.smallYuNet)
        try #require(n.count == 1 && s.count == 1, "faces found: \(n.count) and \(s.count)")
        #expect(n[0].score > 0.8 && s[0].score > 0.8)
        #expect(Self.overlap(n[0].box, s[0].box) > 0.7)
        // The eyes lie above the mouth corners, inside the box.
        let box = n[0].box
        for point in [n[0].keypoints.0, n[0].keypoints.1, n[0].keypoints.2, n[0].keypoints.3, n[0].keypoints.4] {
            #expect(point.x > box.x && point.x < box.x + box.width && point.y > box.y && point.y < box.y + box.height)
        }
        #expect(n[0].keypoints.0.y < n[0].keypoints.3.y && n[0].keypoints.1.y < n[0].keypoints.4.y)
    }

    @Test("the eye-state network given as YuNet is refused, naming what YuNet's outputs lack")
    func anotherNetworkIsRefused() {
        var yunet: OpaquePointer?
        let call = NativeCall { fk_yunet_create(NativeInputs.eyeState, &yunet, $0) }
        #expect(call.status == FK_MODEL_UNAVAILABLE.code)
        #expect(call.message.contains("eye_state.onnx") && call.message.contains("cls_8"))
        #expect(yunet == nil)
    }
}
