import Foundation
import Testing
import FaceKitDatasets
import FaceKitTestSupport

@testable import FaceKit

/// The shim quietens OpenCV through its logger and FFmpeg through its log callback
/// (native_logging.hpp, ffmpeg_log.cpp), never through the environment: writing the environment
/// while other threads read it (getenv in OpenCV, FFmpeg, BLAS) is undefined behaviour.
@Suite("Native logging settings")
struct NativeLoggingTests {
    /// Every variable of the process's environment, as `name=value` lines.
    static func environment() -> [String] {
        var lines: [String] = []
        var entry = environ
        while let line = entry.pointee {
            lines.append(String(cString: line))
            entry += 1
        }
        return lines.sorted()
    }

    @Test("no native entry point writes the environment")
    func environmentNeverWritten() throws {
        let folder = NSTemporaryDirectory() + "facekit-logging-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            let crossing = TestData.repository.appendingPathComponent("TestVideos/crossing.mp4").path
            let image = try FaceImage(contentsOfFile: TestData.fixture("astronaut.png"))
            var calls: [(String, () throws -> Void)] = [
                ("fk_image_create_from_file", { _ = try FaceImage(contentsOfFile: TestData.fixture("astronaut.bmp")) }),
                ("fk_image_encode", { _ = try image.encoded(fileExtension: "jpg", quality: 90) }),
                ("fk_video_open", { _ = try VideoReader(contentsOfFile: crossing).next() }),
                ("fk_video_writer_create", {
                    _ = try VideoWriter(path: folder + "/out.mp4", framesPerSecond: 25, width: 64, height: 64)
                }),
                ("fk_cascade_create", { _ = try? NativeCascade(path: folder + "/missing.xml") }),
            ]
            if TestData.hasModels {
                calls.append(("fk_yunet_create", { _ = try FaceDetector(models: ModelLocator(directory: TestData.models)) }))
            }
            for (name, call) in calls {
                let before = Self.environment()
                try call()
                #expect(Self.environment() == before, "\(name) changed the environment")
            }
        }
    }
}
