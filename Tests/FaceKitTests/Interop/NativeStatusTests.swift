import Testing
@testable import FaceKit

@Suite("NativeStatus")
struct NativeStatusTests {
    @Test("every Swift status equals its C value", arguments: NativeStatus.allCases)
    func pinnedToC(status: NativeStatus) {
        #expect(status.rawValue == status.cValue)
    }

    @Test("FK_FILE_UNWRITABLE and FK_INVALID_SETTING were appended as 9 and 10, and the others kept their values")
    func appendedStatus() {
        #expect(NativeStatus.fileUnwritable.cValue == 9)
        #expect(NativeStatus.invalidSetting.cValue == 10)
        #expect(NativeStatus.allCases.map(\.cValue) == Array(0...10))
    }

    /// What `callNative` throws for a shim call about `subject` that fails with `status` and
    /// `message`; `nil` if it throws nothing.
    static func error(of status: NativeStatus, message: String, subject: String) -> FaceKitError? {
        do {
            try callNative(subject: subject) { record in
                record.pointee.status = status.rawValue
                withUnsafeMutableBytes(of: &record.pointee.message) { $0.copyBytes(from: Array((message + "\0").utf8)) }
                return status.rawValue
            }
            return nil
        } catch {
            return error
        }
    }

    @Test("FK_INVALID_SETTING is an invalid FACEKIT_NATIVE, with the shim's message")
    func invalidSettingNamesTheVariable() {
        #expect(
            Self.error(of: .invalidSetting, message: "no", subject: "yunet.onnx")
                == .invalidOption(name: "FACEKIT_NATIVE", reason: "no"))
    }

    @Test("a status of the shim becomes the FaceKitError of its kind, naming the subject")
    func unwritableMapsToItsError() {
        let error = Self.error(of: .fileUnwritable, message: "disk full", subject: "out/a.mp4")
        #expect(error == .unwritableFile(path: "out/a.mp4", reason: "disk full"))
        #expect(error.map { "\($0)" } == "out/a.mp4: cannot write file: disk full")
    }
}
