import Foundation
import Testing
import FaceKitTestSupport

@testable import FaceKit

/// ``Face/followedPointShare``: a video frame's face says whether the detector found it in that
/// frame or optical flow followed it there, and how many of its points the flow brought back.
@Suite("followed faces", .needsModels)
struct FollowedFacesTests {
    @Test("on the crossing clip, detection frames' faces have no share; followed faces a share of at least 0.5")
    func crossing() throws {
        let clip = TestData.repository.appendingPathComponent("TestVideos/crossing.mp4").path
        let tracked = try TrackedVideo.faces(in: clip, options: TrackedVideo.trackingOptions)
        let faces = tracked.sorted { $0.key < $1.key }.flatMap(\.value)
        let shares = faces.compactMap(\.followedPointShare)
        let detected = faces.filter { $0.followedPointShare == nil }
        // Detection runs every few frames: most faces are followed, every track starts detected.
        #expect(shares.count > detected.count, "\(shares.count) followed, \(detected.count) detected")
        #expect(!detected.isEmpty)
        #expect(shares.allSatisfy { $0 >= FaceFollower.minimumFollowedShare && $0 <= 1 }, "\(shares.min() ?? 0)")
        let first = try #require(tracked[tracked.keys.min()!])
        #expect(first.allSatisfy { $0.followedPointShare == nil }, "a track's first frame is a detection")
        // A still photo's faces are never followed.
        let detector = try FaceDetector(models: ModelLocator(directory: TestData.models))
        #expect(try detector.process(contentsOfFile: TestData.fixture("astronaut.png")).allSatisfy { $0.followedPointShare == nil })
    }
}
