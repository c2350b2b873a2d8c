import CFaceKit
import Foundation
import Testing

/// Every fk_status value is what some real call returns, with the record saying the same.
@Suite("CFaceKit: every status from a real call")
struct StatusTests {
    /// Expects `call` to have ended with `status`: an error record that says the same, or on
    /// success one left untouched.
    static func expectStatus(_ status: fk_status, _ call: NativeCall, _ what: Comment) {
        #expect(call.status == status.code, what)
        if status == FK_OK {
            #expect(call.recordUntouched, what)
        } else {
            #expect(call.record.status == status.code && call.messageIsTerminated && !call.message.isEmpty, what)
        }
    }

    @Test("FK_OK: an image that decodes")
    func ok() {
        var image: OpaquePointer?
        Self.expectStatus(FK_OK, NativeCall { fk_image_create_from_file(NativeInputs.photo, 0, &image, $0) }, "png")
        #expect(image != nil)
        fk_image_free(image)
    }

    @Test("FK_INVALID_ARGUMENT: a negative size")
    func invalidArgument() {
        var image: OpaquePointer?
        let pixels = [UInt8](repeating: 0, count: 16)
        let call = NativeCall { fk_image_create_from_pixels(pixels, -4, 4, 4, Int32(FK_PIXEL_GRAY8.rawValue), &image, $0) }
        Self.expectStatus(FK_INVALID_ARGUMENT, call, "width -4")
        #expect(call.message == "width and height must be positive")
    }

    @Test("FK_FILE_UNREADABLE: a missing file, and a folder")
    func fileUnreadable() throws {
        var image: OpaquePointer?
        let missing = NativeCall { fk_image_create_from_file("/nonexistent/a.jpg", 0, &image, $0) }
        Self.expectStatus(FK_FILE_UNREADABLE, missing, "missing file")
        #expect(missing.message == "No such file or directory")
        try NativeInputs.withTemporaryFolder { folder in
            let call = NativeCall { fk_image_create_from_file(folder, 0, &image, $0) }
            Self.expectStatus(FK_FILE_UNREADABLE, call, "a folder")
            #expect(call.message == "is a folder")
        }
    }

    @Test("FK_NOT_AN_IMAGE: a text file")
    func notAnImage() throws {
        try NativeInputs.withTemporaryFolder { folder in
            let path = folder + "/notes.jpg"
            try "not an image".write(toFile: path, atomically: true, encoding: .utf8)
            var image: OpaquePointer?
            Self.expectStatus(FK_NOT_AN_IMAGE, NativeCall { fk_image_create_from_file(path, 0, &image, $0) }, "text")
            #expect(image == nil)
        }
    }

    @Test("FK_IMAGE_TOO_LARGE: more pixels than the caller allows")
    func imageTooLarge() {
        var image: OpaquePointer?
        let call = NativeCall { fk_image_create_from_file(NativeInputs.photo, 512 * 512 - 1, &image, $0) }
        Self.expectStatus(FK_IMAGE_TOO_LARGE, call, "512 x 512 against a limit one pixel less")
        #expect(image == nil)
    }

    @Test("FK_MODEL_UNAVAILABLE: a photo given as the detector's model")
    func modelUnavailable() {
        var yunet: OpaquePointer?
        let call = NativeCall { fk_yunet_create(NativeInputs.photo, &yunet, $0) }
        Self.expectStatus(FK_MODEL_UNAVAILABLE, call, "png as ONNX")
        #expect(call.message.contains(NativeInputs.photo))
        #expect(yunet == nil)
    }

    @Test("FK_MODEL_UNAVAILABLE: YuNet given as the eye-state network (another input size and output)")
    func patchClassifierRefusesAnotherNetwork() {
        var classifier: OpaquePointer?
        let call = NativeCall { fk_patch_classifier_create(NativeInputs.yunet, "facekit_eye_state", 32, &classifier, $0) }
        Self.expectStatus(FK_MODEL_UNAVAILABLE, call, "YuNet as the eye-state network")
        #expect(call.message.contains("yunet_n_320_320.onnx"))
        #expect(classifier == nil)
    }

    /// Whether the kernel refuses allocations larger than memory and swap (the default
    /// heuristic, or strict accounting); with overcommit always allowed the file would be read.
    static var overcommitRefusesTheImpossible: Bool {
        let mode = (try? String(contentsOfFile: "/proc/sys/vm/overcommit_memory", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return mode == "0" || mode == "2"
    }

    @Test(
        "FK_OUT_OF_MEMORY: an 8 TiB file (sparse) to decode as an image",
        .enabled(if: overcommitRefusesTheImpossible, "the kernel allows any allocation (vm.overcommit_memory = 1)"))
    func outOfMemory() throws {
        try NativeInputs.withTemporaryFolder { folder in
            let path = folder + "/huge.jpg"
            let descriptor = open(path, O_WRONLY | O_CREAT, 0o644)
            try #require(descriptor >= 0)
            let truncated = ftruncate(descriptor, 1 << 43)
            close(descriptor)
            try #require(truncated == 0, "this file system cannot hold a sparse 8 TiB file")
            var image: OpaquePointer?
            let call = NativeCall { fk_image_create_from_file(path, 0, &image, $0) }
            Self.expectStatus(FK_OUT_OF_MEMORY, call, "8 TiB")
            #expect(call.message == "out of memory")
        }
    }

    @Test("FK_INTERNAL: OpenCV's WebP encoder refusing an image wider than WebP allows (16383 px)")
    func internalFailure() throws {
        let wide = try #require(NativeInputs.image(width: 16400, height: 2))
        defer { fk_image_free(wide) }
        var bytes: UnsafeMutablePointer<UInt8>?
        var count = 0
        let call = NativeCall { fk_image_encode(wide, "webp", 90, &bytes, &count, $0) }
        Self.expectStatus(FK_INTERNAL, call, "webp 16400 px wide")
        #expect(call.message.hasPrefix("encoder failed"))
        #expect(bytes == nil)
    }

    @Test("FK_NOT_A_VIDEO: a text file, and an empty file")
    func notAVideo() throws {
        try NativeInputs.withTemporaryFolder { folder in
            let text = folder + "/clip.mp4"
            try "not a video at all, only some words".write(toFile: text, atomically: true, encoding: .utf8)
            let empty = folder + "/empty.mp4"
            try Data().write(to: URL(fileURLWithPath: empty))
            var video: OpaquePointer?
            Self.expectStatus(FK_NOT_A_VIDEO, NativeCall { fk_video_open(text, 0, &video, $0) }, "text")
            let call = NativeCall { fk_video_open(empty, 0, &video, $0) }
            Self.expectStatus(FK_NOT_A_VIDEO, call, "empty")
            #expect(call.message == "empty file")
            #expect(video == nil)
        }
    }

    @Test("FK_FILE_UNWRITABLE: a video written into a folder that does not exist")
    func fileUnwritable() {
        var writer: OpaquePointer?
        let call = NativeCall { fk_video_writer_create("/nonexistent/out.avi", "MJPG", 25, 64, 48, &writer, $0) }
        Self.expectStatus(FK_FILE_UNWRITABLE, call, "missing folder")
        #expect(call.message.contains("No such file or directory"))
        #expect(writer == nil)
    }

    @Test("FK_INVALID_SETTING: FACEKIT_NATIVE holding a value it does not take")
    func invalidSetting() {
        var path: Int32 = -1
        let call = NativeCall { fk_kernel_path_parse("reference:yunet,bogus", 0, &path, $0) }
        Self.expectStatus(FK_INVALID_SETTING, call, "an unknown kernel's name")
        #expect(call.message.hasPrefix("\"reference:yunet,bogus\" is not a value of FACEKIT_NATIVE: it takes"))
        #expect(path == -1)
    }

    @Test("the tests above cover every status, 0 through FK_INVALID_SETTING, the last appended")
    func everyStatusCovered() {
        let covered: [fk_status] = [
            FK_OK, FK_INVALID_ARGUMENT, FK_FILE_UNREADABLE, FK_NOT_AN_IMAGE, FK_IMAGE_TOO_LARGE, FK_MODEL_UNAVAILABLE,
            FK_OUT_OF_MEMORY, FK_INTERNAL, FK_NOT_A_VIDEO, FK_FILE_UNWRITABLE, FK_INVALID_SETTING,
        ]
        #expect(covered.map(\.rawValue) == Array(0...FK_INVALID_SETTING.rawValue))
    }
}
