import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKit

/// Cuts and the joining of tracks across them, on the development clips: the Hamilton clip
/// (Miranda in a wide shot, Lacamoire in a close-up, Miranda again, then the audience) and
/// Megamind (a woman and a man in the background, then a second man with glasses, in shots
/// that alternate).
@Suite("Tracks across cuts", .needsModels, .needsSharedData)
struct TracksAcrossCutsTests {
    /// The frames at which the detector sees a cut.
    static func cuts(in path: String) throws -> [Int] {
        var detector = SceneCutDetector()
        let video = try VideoReader(contentsOfFile: path)
        var cuts: [Int] = []
        while let frame = try video.next(), let image = frame.image {
            if try detector.isCut(image) { cuts.append(frame.index) }
        }
        return cuts
    }

    @Test("cuts are found where ffmpeg's scdet finds them, and nowhere else")
    func sceneCuts() throws {
        // ffmpeg -i CLIP -vf scdet=threshold=5: Hamilton 20, 82, 211; Megamind 1 (out of a black
        // first frame), 98, 154, 200.
        #expect(try Self.cuts(in: TestData.shared("video/short_hamilton_clip.mp4")) == [20, 82, 211])
        let megamind = try Self.cuts(in: TestData.shared("video/Megamind.avi"))
        #expect(megamind == [1, 98, 154, 200])
    }

    /// Every frame's faces with the IDs joined across cuts, as `facekit track` writes them.
    static func joinedFaces(_ path: String) throws -> [Int: [Face]] {
        let tracker = try FaceTracker(
            options: TrackedVideo.trackingOptions, models: ModelLocator(directory: TestData.models),
            reidentification: .required)
        let video = try VideoReader(contentsOfFile: path)
        var result: [Int: [Face]] = [:]
        while let frame = try video.next(), let image = frame.image {
            result[frame.index] = try tracker.process(image, timestampMs: frame.timestampMs)
        }
        let joined = tracker.joinedTrackIDs()
        return result.mapValues { faces in
            faces.map { face in
                var face = face
                face.trackingID = joined[face.trackingID!] ?? face.trackingID
                return face
            }
        }
    }

    /// The ID of the face whose box contains `x` at `frame`.
    static func id(_ faces: [Int: [Face]], frame: Int, x: Double) throws -> Int {
        let face = try #require(faces[frame]?.first { $0.frame.minX <= x && x <= $0.frame.maxX }, "no face at x \(x), frame \(frame)")
        return face.trackingID!
    }

    @Test("Miranda keeps one ID from the wide shot to the medium shot; Lacamoire's close-up and the audience do not take it")
    func hamilton() throws {
        let faces = try Self.joinedFaces(TestData.shared("video/short_hamilton_clip.mp4"))
        let mirandaWide = try Self.id(faces, frame: 10, x: 545)
        let lacamoire = try Self.id(faces, frame: 38, x: 400)
        let mirandaMedium = try Self.id(faces, frame: 150, x: 250)
        #expect(mirandaWide == mirandaMedium)
        #expect(lacamoire != mirandaWide)
        let audience = Set(try #require(faces[250]).map { $0.trackingID! })
        #expect(audience.count == 4)
        #expect(!audience.contains(mirandaWide) && !audience.contains(lacamoire))
    }

    @Test("Megamind: the two men keep different IDs, the woman keeps hers across shots, and no one takes another's")
    func megamind() throws {
        let faces = try Self.joinedFaces(TestData.shared("video/Megamind.avi"))
        let woman = try Self.id(faces, frame: 50, x: 290)
        let backgroundMan = try Self.id(faces, frame: 50, x: 500)
        let glasses = try Self.id(faces, frame: 120, x: 470)
        #expect(Set([woman, backgroundMan, glasses]).count == 3)
        #expect(try Self.id(faces, frame: 180, x: 260) == woman)
        #expect(try Self.id(faces, frame: 230, x: 390) == glasses)
    }

    @Test("a person's naming descriptor is settled while the video goes on: Miranda's once his wide shot has ended for good, Lacamoire's not while on screen")
    func personDescriptorsSettle() throws {
        var configuration = TrackerConfiguration()
        configuration.reidentificationWindowMs = 500
        let tracker = try FaceTracker(
            options: TrackedVideo.trackingOptions, configuration: configuration,
            models: ModelLocator(directory: TestData.models), reidentification: .required)
        let video = try VideoReader(contentsOfFile: TestData.shared("video/short_hamilton_clip.mp4"))
        var ids: [Int: Set<Int>] = [:]
        while let frame = try video.next(), let image = frame.image, frame.index <= 60 {
            if frame.index == 60 {
                // Every descriptor taken so far recorded (reading `joining` waits for them), so
                // that what this frame settles does not depend on how fast the worker ran.
                _ = tracker.joining
            }
            for tracked in try tracker.track(image, index: frame.index, timestampMs: frame.timestampMs) {
                ids[tracked.index] = Set(tracked.faces.map { $0.trackingID! })
            }
        }
        let settled = tracker.settledPersonDescriptors()
        // Miranda's wide shot (frames 0-19, final ID 0) ended at the cut and was kept 0.5 s for
        // re-identification: settled, from its own descriptors. Lacamoire's close-up (from 20)
        // is still on screen and has not been for 30 s: not settled.
        #expect(ids[10] == [0])
        let miranda = try #require(settled[0] ?? nil, "Miranda's descriptor is not settled at frame 60")
        #expect(settled.count == 1, "\(settled.keys.sorted())")
        // It is the one the end of the video names him by, though his medium shot joins him later.
        for tracked in try tracker.finishVideo() { ids[tracked.index] = Set(tracked.faces.map { $0.trackingID! }) }
        #expect(tracker.personDescriptor(ofTrack: 0) == miranda)
    }
}
