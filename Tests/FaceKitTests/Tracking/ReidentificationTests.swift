import Foundation
import Testing

@testable import FaceKit

/// Synthetic 128-value descriptors: person `n` is the unit vector along axis `n`, so two people
/// are 1.41 apart; `nudged` moves one by a chosen distance along another axis.
private enum Person {
    static func descriptor(_ n: Int) -> [Float] {
        var values = [Float](repeating: 0, count: 128)
        values[n] = 1
        return values
    }

    static func nudged(_ n: Int, by distance: Float) -> [Float] {
        var values = descriptor(n)
        values[127 - n] = distance
        return values
    }
}

private func box(_ x: Double, _ y: Double = 50) -> CGRect { CGRect(x: x, y: y, width: 80, height: 80) }

/// Runs one frame with the given descriptors (one per box; `nil` for "cannot be computed") and
/// records which boxes were asked for.
private func step(
    _ tracker: inout BoxTracker, _ boxes: [CGRect], _ descriptors: [[Float]?], frame: Int,
    asked: inout [Int]
) -> [Int] {
    tracker.update(boxes: boxes, timestampMs: Double(frame) * 40) { (index: Int) throws(Never) -> [Float]? in
        asked.append(index)
        return descriptors[index]
    }
}

private func step(_ tracker: inout BoxTracker, _ boxes: [CGRect], _ descriptors: [[Float]?], frame: Int) -> [Int] {
    var asked: [Int] = []
    return step(&tracker, boxes, descriptors, frame: frame, asked: &asked)
}

@Suite("BoxTracker re-identification")
struct ReidentificationTests {
    @Test(
        "the only face to come back after the survival window keeps its ID unless it looks like someone else",
        arguments: [(0.0, true), (0.3, true), (0.49, true), (0.69, true), (0.71, false), (1.0, false)] as [(Float, Bool)])
    func reentry(distance: Float, keeps: Bool) {
        var tracker = BoxTracker(configuration: TrackerConfiguration(maximumMissedFrames: 5))
        var ids: [Int] = []
        for frame in 0..<10 { ids += step(&tracker, [box(100)], [Person.descriptor(0)], frame: frame) }
        for frame in 10..<60 { ids += step(&tracker, [], [], frame: frame) }   // 2 s away
        #expect(tracker.liveTrackIDs.isEmpty && tracker.lostTrackIDs == [0])
        ids += step(&tracker, [box(400)], [Person.nudged(0, by: distance)], frame: 60)
        #expect((Set(ids).count == 1) == keeps, "\(ids)")
    }

    @Test(
        "with two faces away, one back keeps its ID only when it looks the same, within 0.5",
        arguments: [(0.3, true), (0.49, true), (0.51, false), (0.69, false)] as [(Float, Bool)])
    func reentryAmongTwo(distance: Float, keeps: Bool) {
        var tracker = BoxTracker(configuration: TrackerConfiguration(maximumMissedFrames: 5))
        var first: [Int] = []
        for frame in 0..<10 {
            first.append(step(&tracker, [box(100), box(300)], [Person.descriptor(0), Person.descriptor(1)], frame: frame)[0])
        }
        for frame in 10..<60 { _ = step(&tracker, [], [], frame: frame) }
        #expect(tracker.lostTrackIDs.count == 2)
        let back = step(&tracker, [box(500)], [Person.nudged(0, by: distance)], frame: 60)
        #expect((back[0] == first[0]) == keeps, "\(back) after \(first)")
    }

    @Test("a dropped track is forgotten after the re-identification window")
    func window() {
        var configuration = TrackerConfiguration(maximumMissedFrames: 5)
        configuration.reidentificationWindowMs = 1000
        var tracker = BoxTracker(configuration: configuration)
        _ = step(&tracker, [box(100)], [Person.descriptor(0)], frame: 0)
        for frame in 1..<30 { _ = step(&tracker, [], [], frame: frame) }   // last seen 0 ms, now 1160 ms
        #expect(step(&tracker, [box(100)], [Person.descriptor(0)], frame: 30) == [1])
        #expect(tracker.lostTrackIDs.isEmpty)
    }

    @Test("a face that jumps while its track is still alive is recognised instead of starting a new track")
    func jumpWhileAlive() {
        var tracker = BoxTracker()
        #expect(step(&tracker, [box(0)], [Person.descriptor(0)], frame: 0) == [0])
        #expect(step(&tracker, [box(400, 200)], [Person.descriptor(0)], frame: 1) == [0])
        // The jump reset its motion: a small step from the new place still matches by overlap.
        #expect(step(&tracker, [box(404, 200)], [Person.descriptor(0)], frame: 2) == [0])
        #expect(tracker.liveTrackIDs == [0])
    }

    @Test("a look-alike never takes the ID of a face matched by overlap in the same frame")
    func lookAlike() {
        var tracker = BoxTracker()
        _ = step(&tracker, [box(0)], [Person.descriptor(0)], frame: 0)
        let ids = step(&tracker, [box(2), box(400)], [Person.descriptor(0), Person.descriptor(0)], frame: 1)
        #expect(ids == [0, 1])
    }

    @Test("two faces coming back together get their own IDs, closest appearance first")
    func twoComeBack() {
        var tracker = BoxTracker(configuration: TrackerConfiguration(maximumMissedFrames: 2))
        #expect(step(&tracker, [box(0), box(200)], [Person.descriptor(0), Person.descriptor(1)], frame: 0) == [0, 1])
        for frame in 1..<10 { _ = step(&tracker, [], [], frame: frame) }
        #expect(tracker.lostTrackIDs == [0, 1])
        let ids = step(
            &tracker, [box(500), box(600), box(700)],
            [Person.nudged(1, by: 0.2), Person.descriptor(2), Person.nudged(0, by: 0.1)], frame: 10)
        #expect(ids == [1, 2, 0])
        #expect(tracker.lostTrackIDs.isEmpty)
    }

    @Test("a face whose descriptor cannot be computed is tracked by overlap only")
    func noDescriptor() {
        var tracker = BoxTracker(configuration: TrackerConfiguration(maximumMissedFrames: 1))
        #expect(step(&tracker, [box(0)], [nil], frame: 0) == [0])
        for frame in 1..<5 { _ = step(&tracker, [], [], frame: frame) }
        #expect(tracker.lostTrackIDs.isEmpty, "nothing to recognise it by")
        #expect(step(&tracker, [box(0)], [Person.descriptor(0)], frame: 5) == [1])
    }

    @Test("descriptors are asked for new faces and every refresh interval, not every frame")
    func descriptorsOnlyWhenNeeded() {
        var configuration = TrackerConfiguration()
        configuration.descriptorRefreshFrames = 10
        var tracker = BoxTracker(configuration: configuration)
        var askedFrames: [Int] = []
        for frame in 0..<30 {
            var asked: [Int] = []
            _ = step(&tracker, [box(Double(frame))], [Person.descriptor(0)], frame: frame, asked: &asked)
            if !asked.isEmpty { askedFrames.append(frame) }
        }
        #expect(askedFrames == [0, 10, 20])
    }

    @Test("a track overlapped by two detections takes no fresh descriptor until it is unambiguous")
    func noRefreshWhileCrossing() {
        var configuration = TrackerConfiguration()
        configuration.descriptorRefreshFrames = 1
        var tracker = BoxTracker(configuration: configuration)
        _ = step(&tracker, [box(0)], [Person.descriptor(0)], frame: 0)
        var asked: [Int] = []
        // The second box overlaps track 0 too (IoU 0.6): it is a new face, asked for as such,
        // but track 0's own detection is not asked for.
        _ = step(&tracker, [box(0), box(20)], [Person.descriptor(0), Person.descriptor(1)], frame: 1, asked: &asked)
        #expect(asked == [1])
    }

    @Test("a failing descriptor leaves the tracker as it was")
    func failureLeavesStateUnchanged() {
        struct Failure: Error {}
        var tracker = BoxTracker()
        _ = step(&tracker, [box(0)], [Person.descriptor(0)], frame: 0)
        let before = (tracker.tracks, tracker.lostTracks)
        #expect(throws: Failure.self) {
            try tracker.update(boxes: [box(300)], timestampMs: 40) { (_: Int) throws(Failure) -> [Float]? in throw Failure() }
        }
        #expect(tracker.tracks == before.0 && tracker.lostTracks == before.1)
        #expect(step(&tracker, [box(2)], [Person.descriptor(0)], frame: 2) == [0])
    }

    @Test("removeAllTracks forgets lost tracks too; IDs are not reused")
    func reset() {
        var tracker = BoxTracker(configuration: TrackerConfiguration(maximumMissedFrames: 0))
        _ = step(&tracker, [box(0)], [Person.descriptor(0)], frame: 0)
        _ = step(&tracker, [], [], frame: 1)
        #expect(tracker.lostTrackIDs == [0])
        tracker.removeAllTracks()
        #expect(step(&tracker, [box(0)], [Person.descriptor(0)], frame: 2) == [1])
    }

    @Test("without descriptors, behaviour is overlap and motion only")
    func overlapOnly() {
        var tracker = BoxTracker(configuration: TrackerConfiguration(maximumMissedFrames: 2))
        #expect(tracker.update(boxes: [box(0)], timestampMs: 0) == [0])
        for frame in 1..<5 { _ = tracker.update(boxes: [], timestampMs: Double(frame) * 40) }
        #expect(tracker.lostTrackIDs.isEmpty)
        #expect(tracker.update(boxes: [box(0)], timestampMs: 200) == [1])
    }
}

@Suite("FaceDescriptorDistance")
struct FaceDescriptorDistanceTests {
    @Test(
        "is the Euclidean distance",
        arguments: [([0, 0], [3, 4], 5.0), ([1, 1], [1, 1], 0.0), ([1, 0, 0], [0, 1, 0], 2.0.squareRoot())]
            as [([Float], [Float], Double)])
    func euclidean(a: [Float], b: [Float], expected: Double) {
        #expect(abs(FaceDescriptor.distance(a, b) - expected) < 1e-6)
    }
}
