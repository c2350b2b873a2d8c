import Foundation
import Testing
import FaceKitDatasets
import FaceKitTestSupport

@testable import FaceKit

/// The shim quietens OpenCV and FFmpeg once per process (native_logging.hpp): writing the
/// environment while other threads read it is undefined behaviour, so it must be written once.
@Suite("Native logging settings")
struct NativeLoggingTests {
    static let variable = "OPENCV_FFMPEG_LOGLEVEL"

    @Test("OPENCV_FFMPEG_LOGLEVEL is written once, by the first native call, and never again")
    func environmentWrittenOnce() throws {
        let folder = NSTemporaryDirectory() + "facekit-logging-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let crossing = TestData.repository.appendingPathComponent("TestVideos/crossing.mp4").path
        // The first native call of this process, wherever the tests run it, quietens FFmpeg.
        let image = try FaceImage(contentsOfFile: TestData.fixture("astronaut.png"))
        #expect(getenv(Self.variable).map { String(cString: $0) } == "-8")

        // Removed for a moment (other tests read it only through OpenCV, and only log less
        // quietly meanwhile); every entry point that used to set it again must leave it unset.
        unsetenv(Self.variable)
        defer { setenv(Self.variable, "-8", 1) }
        var calls: [(String, () throws -> Void)] = [
            ("fk_image_create_from_file", { _ = try FaceImage(contentsOfFile: TestData.fixture("astronaut.jpg")) }),
            ("fk_image_encode", { _ = try image.encoded(fileExtension: "jpg", quality: 90) }),
            ("fk_video_open", { _ = try VideoReader(contentsOfFile: crossing) }),
            ("fk_video_writer_create", {
                _ = try VideoWriter(path: folder + "/out.mp4", framesPerSecond: 25, width: 64, height: 64)
            }),
            ("fk_cascade_create", { _ = try? NativeCascade(path: folder + "/missing.xml") }),
        ]
        if TestData.hasModels {
            calls.append(("fk_yunet_create", { _ = try FaceDetector(models: ModelLocator(directory: TestData.models)) }))
        }
        for (name, call) in calls {
            try call()
            #expect(getenv(Self.variable) == nil, "\(name) wrote \(Self.variable) again")
        }
    }
}
