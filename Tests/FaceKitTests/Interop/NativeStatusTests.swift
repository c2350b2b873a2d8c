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

    @Test("FK_INVALID_SETTING is an invalid FACEKIT_NATIVE, with the shim's message")
    func invalidSettingNamesTheVariable() {
        #expect {
            try callNative(subject: "yunet.onnx") { record in
                record.pointee.status = NativeStatus.invalidSetting.rawValue
                withUnsafeMutableBytes(of: &record.pointee.message) { $0.copyBytes(from: Array("no\0".utf8)) }
                return NativeStatus.invalidSetting.rawValue
            }
        } throws: { error in
            (error as? FaceKitError) == .invalidOption(name: "FACEKIT_NATIVE", reason: "no")
        }
    }

    @Test("a status of the shim becomes the FaceKitError of its kind, naming the subject")
    func unwritableMapsToItsError() {
        #expect {
            try callNative(subject: "out/a.mp4") { record in
                record.pointee.status = NativeStatus.fileUnwritable.rawValue
                withUnsafeMutableBytes(of: &record.pointee.message) { $0.copyBytes(from: Array("disk full\0".utf8)) }
                return NativeStatus.fileUnwritable.rawValue
            }
        } throws: { error in
            (error as? FaceKitError) == .unwritableFile(path: "out/a.mp4", reason: "disk full")
                && "\(error)" == "out/a.mp4: cannot write file: disk full"
        }
    }
}
