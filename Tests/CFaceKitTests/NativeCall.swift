import CFaceKit
import FaceKitTestSupport
import Foundation

/// What one call into the shim returned: its status and the error record it was given.
struct NativeCall {
    var status: Int32
    var record: fk_error

    /// The record's message up to its NUL (the whole array when there is none).
    var message: String {
        withUnsafeBytes(of: record.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// Whether the message array holds a NUL.
    var messageIsTerminated: Bool { withUnsafeBytes(of: record.message) { $0.contains(0) } }

    /// Runs `body` with an error record whose bytes are all 0xFF, so that a message left without
    /// its NUL, or a record written on success, shows.
    init(_ body: (UnsafeMutablePointer<fk_error>) -> Int32) {
        var record = fk_error()
        withUnsafeMutableBytes(of: &record) { _ = $0.initializeMemory(as: UInt8.self, repeating: 0xFF) }
        status = body(&record)
        self.record = record
    }

    /// Whether the record is as `init` left it: no byte written.
    var recordUntouched: Bool { withUnsafeBytes(of: record) { $0.allSatisfy { $0 == 0xFF } } }
}

extension fk_status {
    /// The status as the functions return it.
    var code: Int32 { Int32(bitPattern: rawValue) }
}

/// Paths of the inputs the C-level tests use.
enum NativeInputs {
    static let photo = TestData.fixture("astronaut.png")
    static let video = TestData.repository.appendingPathComponent("TestVideos/crossing.mp4").path
    static let yunet = TestData.repository.appendingPathComponent("Sources/FaceKit/BundledModels/yunet_n_320_320.onnx")
        .path
    static let eyeState = TestData.repository.appendingPathComponent("Sources/FaceKit/BundledModels/eye_state.onnx").path
    static let smileCascade = "/usr/share/opencv4/haarcascades/haarcascade_smile.xml"
    static let landmarks68 = TestData.models + "/shape_predictor_68_face_landmarks.dat"
    static let faceDescriptor = TestData.models + "/dlib_face_recognition_resnet_model_v1.dat"
    static let mmod = TestData.models + "/mmod_human_face_detector.dat"

    /// A new image of `width` x `height` grey pixels of value `level`, or nil when it cannot be made.
    static func image(width: Int32 = 64, height: Int32 = 48, level: UInt8 = 128) -> OpaquePointer? {
        let pixels = [UInt8](repeating: level, count: Int(width * height))
        var image: OpaquePointer?
        let status = fk_image_create_from_pixels(pixels, width, height, width, Int32(FK_PIXEL_GRAY8.rawValue), &image, nil)
        return status == FK_OK.code ? image : nil
    }

    /// A fresh empty folder, removed after `body`.
    static func withTemporaryFolder<T>(_ body: (String) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cfacekit-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try body(folder)
    }
}
