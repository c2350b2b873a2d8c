// `package`: CFaceKitTools' Swift owners (FaceKitDatasets/Interop) turn failures into errors
// through ``callNative(subject:_:)`` too, so its record type is visible inside the package; no
// C type reaches the public API.
package import CFaceKit
import Foundation

/// The shim's status codes, mirrored so that Swift code never compares raw integers.
enum NativeStatus: Int32, CaseIterable {
    case ok = 0
    case invalidArgument = 1
    case fileUnreadable = 2
    case notAnImage = 3
    case imageTooLarge = 4
    case modelUnavailable = 5
    case outOfMemory = 6
    case `internal` = 7
    case notAVideo = 8
    case fileUnwritable = 9
    case invalidSetting = 10

    /// The C value of the same name in CFaceKit.h (pinned by a test).
    var cValue: Int32 {
        switch self {
        case .ok: Int32(FK_OK.rawValue)
        case .invalidArgument: Int32(FK_INVALID_ARGUMENT.rawValue)
        case .fileUnreadable: Int32(FK_FILE_UNREADABLE.rawValue)
        case .notAnImage: Int32(FK_NOT_AN_IMAGE.rawValue)
        case .imageTooLarge: Int32(FK_IMAGE_TOO_LARGE.rawValue)
        case .modelUnavailable: Int32(FK_MODEL_UNAVAILABLE.rawValue)
        case .outOfMemory: Int32(FK_OUT_OF_MEMORY.rawValue)
        case .internal: Int32(FK_INTERNAL.rawValue)
        case .notAVideo: Int32(FK_NOT_A_VIDEO.rawValue)
        case .fileUnwritable: Int32(FK_FILE_UNWRITABLE.rawValue)
        case .invalidSetting: Int32(FK_INVALID_SETTING.rawValue)
        }
    }
}

/// Runs one shim call with a fresh error record and turns a failure into a ``FaceKitError``.
/// This is the only place where native failures become Swift errors, for CFaceKit's calls and
/// for the tools' CFaceKitTools calls alike.
///
/// - Parameter subject: what the call was about (a file path, a model name), for the message.
package func callNative(
    subject: String, _ body: (UnsafeMutablePointer<fk_error>) -> Int32
) throws(FaceKitError) {
    var record = fk_error()
    let status = body(&record)
    guard status != NativeStatus.ok.rawValue else { return }
    let message = withUnsafeBytes(of: &record.message) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
    switch NativeStatus(rawValue: status) {
    case .fileUnreadable: throw .unreadableFile(path: subject, reason: message)
    case .fileUnwritable: throw .unwritableFile(path: subject, reason: message)
    case .notAnImage: throw .notAnImage(source: subject, reason: message)
    case .notAVideo: throw .notAVideo(source: subject, reason: message)
    case .imageTooLarge: throw .imageTooLarge(source: subject, reason: message)
    case .modelUnavailable: throw .modelUnavailable(name: subject, reason: message)
    case .outOfMemory: throw .native(reason: "\(subject): out of memory")
    // The one setting the shim reads itself: which code runs its kernels (CFaceKit.h).
    case .invalidSetting: throw .invalidOption(name: "FACEKIT_NATIVE", reason: message)
    default: throw .native(reason: "\(subject): \(message)")
    }
}

extension fk_rect {
    /// The shim's rectangle for a box in pixels.
    package init(_ box: CGRect) {
        self.init(x: Float(box.minX), y: Float(box.minY), width: Float(box.width), height: Float(box.height))
    }
}
