import Foundation
import Testing
import FaceKitTestSupport

@testable import FaceKit

@Suite("Faces described in the background")
struct BackgroundReportingTests {
    private static var options: FaceDetectorOptions {
        var options = TrackedVideo.trackingOptions
        options.landmarkMode = .all
        options.classificationMode = .all
        return options
    }

    private static func tracker() throws -> FaceTracker {
        try FaceTracker(options: options, models: ModelLocator(directory: TestData.models), reidentification: .required)
    }

    @Test("a frame's faces read after later frames are tracked are those of process(), frame by frame", .needsModels)
    func sameAsInLine() throws {
        let path = TestData.repository.appendingPathComponent("TestVideos/leave-reenter.mp4").path
        let inLine = try Self.tracker(), background = try Self.tracker()
        var expected: [[Face]] = [], pending: [PendingFaces] = []
        let video = try VideoReader(contentsOfFile: path)
        while let frame = try video.next(), let image = frame.image {
            expected.append(try inLine.process(image, timestampMs: frame.timestampMs))
            pending.append(try background.processInBackground(image, timestampMs: frame.timestampMs))
        }
        // Read only now, when the worker has described every frame in its own time.
        let described = try pending.map { try $0.faces() }
        #expect(expected.count == 150)
        #expect(expected.joined().count > 200, "too few faces for the comparison to say anything")
        #expect(expected.joined().allSatisfy { !$0.landmarks.isEmpty })
        #expect(expected.joined().contains { $0.smilingProbability != nil && $0.leftEyeOpenProbability != nil })
        for (index, faces) in described.enumerated() { #expect(faces == expected[index], "frame \(index)") }
    }

    @Test("video frames, made grey as they are decoded, give the faces their own pixels give", .needsModels)
    func greyMadeAheadSameAsConverted() throws {
        let path = TestData.repository.appendingPathComponent("TestVideos/crossing.mp4").path
        let decoded = try Self.tracker(), copied = try Self.tracker()
        let video = try VideoReader(contentsOfFile: path)
        var faces = 0
        while let frame = try video.next(), let image = frame.image {
            // The same pixels through FaceImage(pixels:), which has no grey made ahead.
            let bgr = try image.pixels(format: .bgr8)
            let copy = try bgr.withUnsafeBytes { buffer in
                try FaceImage(pixels: buffer, width: image.width, height: image.height, bytesPerRow: 3 * image.width, format: .bgr8)
            }
            let fromVideo = try decoded.process(image, timestampMs: frame.timestampMs)
            #expect(try copied.process(copy, timestampMs: frame.timestampMs) == fromVideo, "frame \(frame.index)")
            faces += fromVideo.count
        }
        #expect(faces > 150, "too few faces for the comparison to say anything")
    }
}
