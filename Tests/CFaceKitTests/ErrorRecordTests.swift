import CFaceKit
import CFaceKitTools
import Foundation
import Testing

/// The caller-owned error record: filled on failure with the status and a NUL-terminated
/// message, cut to fit; not touched on success. Out-parameters are not touched on failure.
@Suite("CFaceKit: error record")
struct ErrorRecordTests {
    static var messageCapacity: Int { MemoryLayout.size(ofValue: fk_error().message) }

    @Test("a message longer than the record is cut to fit and NUL-terminated", arguments: [600, 4000])
    func truncated(pathLength: Int) {
        let path = "/nonexistent/" + String(repeating: "m", count: pathLength) + ".onnx"
        var yunet: OpaquePointer?
        let call = NativeCall { fk_yunet_create(path, &yunet, $0) }
        #expect(call.status == FK_MODEL_UNAVAILABLE.code)
        #expect(call.record.status == FK_MODEL_UNAVAILABLE.code)
        #expect(call.messageIsTerminated)
        #expect(call.message.utf8.count == Self.messageCapacity - 1)
        #expect(("cannot open " + path).hasPrefix(call.message))
        #expect(yunet == nil)
    }

    @Test("a message that fits is whole")
    func whole() {
        var yunet: OpaquePointer?
        let call = NativeCall { fk_yunet_create("/nonexistent/yunet.onnx", &yunet, $0) }
        #expect(call.status == FK_MODEL_UNAVAILABLE.code)
        #expect(call.message == "cannot open /nonexistent/yunet.onnx: No such file or directory")
    }

    @Test("a successful call leaves the record untouched")
    func untouchedOnSuccess() throws {
        var image: OpaquePointer?
        let opened = NativeCall { fk_image_create_from_file(NativeInputs.photo, 0, &image, $0) }
        defer { fk_image_free(image) }
        #expect(opened.status == FK_OK.code && opened.recordUntouched)
        var width: Int32 = 0
        var height: Int32 = 0
        let size = NativeCall { fk_image_get_size(image, &width, &height, $0) }
        #expect(size.status == FK_OK.code && size.recordUntouched)
        #expect(width == 512 && height == 512)
    }

    @Test("a failed call leaves its out-parameters untouched")
    func outParametersUntouchedOnFailure() throws {
        let sentinel = OpaquePointer(bitPattern: 0xDEAD)
        var image = sentinel
        var reduction: Int32 = -7
        let missing = NativeCall {
            fk_image_create_from_file_reduced("/nonexistent/a.jpg", 0, 100, &image, &reduction, $0)
        }
        #expect(missing.status == FK_FILE_UNREADABLE.code)
        #expect(image == sentinel && reduction == -7)

        var video = sentinel
        let notVideo = NativeCall { fk_video_open("/nonexistent/a.mp4", 0, &video, $0) }
        #expect(notVideo.status == FK_FILE_UNREADABLE.code && video == sentinel)

        let real = try #require(NativeInputs.image())
        defer { fk_image_free(real) }
        var bytes = UnsafeMutablePointer<UInt8>(bitPattern: 0xBEEF)
        var count = 77
        let encode = NativeCall { fk_image_encode(real, "gif", 90, &bytes, &count, $0) }
        #expect(encode.status == FK_INVALID_ARGUMENT.code)
        #expect(bytes == UnsafeMutablePointer<UInt8>(bitPattern: 0xBEEF) && count == 77)
    }

    @Test("fk_detector_detect reports how many faces it found in all, beyond the room given")
    func detectorCountsBeyondCapacity() throws {
        var image: OpaquePointer?
        try #require(fk_image_create_from_file(NativeInputs.photo, 0, &image, nil) == FK_OK.code)
        defer { fk_image_free(image) }
        var hog: OpaquePointer?
        try #require(fk_detector_create(Int32(FK_DETECTOR_HOG.rawValue), nil, &hog, nil) == FK_OK.code)
        defer { fk_detector_free(hog) }
        var count: Int32 = -1
        let none = NativeCall { fk_detector_detect(hog, image, 1, nil, 0, &count, $0) }
        #expect(none.status == FK_OK.code)
        #expect(count == 1, "the astronaut's face, found although there was no room for it")
        var detections = [fk_detection](repeating: fk_detection(), count: 2)
        #expect(fk_detector_detect(hog, image, 1, &detections, 2, &count, nil) == FK_OK.code && count == 1)
        #expect(detections[0].box.width > 50)
    }
}
