import Foundation
import Testing

@testable import FaceKit

/// A synthetic face: where it is at a frame, or `nil` while hidden or out of the picture.
private struct Walker: Sendable, CustomStringConvertible {
    var name: String
    var start: CGPoint
    /// Pixels per frame.
    var step: Velocity
    var size: Double = 80
    var hidden: ClosedRange<Int>? = nil

    func box(at frame: Int) -> CGRect? {
        if let hidden, hidden.contains(frame) { return nil }
        return CGRect(
            x: start.x + step.dx * Double(frame), y: start.y + step.dy * Double(frame), width: size, height: size)
    }

    var description: String { name }
}

/// A scene of walkers and the IDs the tracker gave each, frame by frame.
private struct Scene {
    var walkers: [Walker]
    var frames: Int
    var millisecondsPerFrame = 40.0
    /// Jitter of the detector, pixels; deterministic.
    var jitter = 0.0

    /// For each walker, the IDs it received in the frames where it was visible.
    func run(configuration: TrackerConfiguration = TrackerConfiguration()) -> [[Int]] {
        var tracker = BoxTracker(configuration: configuration)
        var received = [[Int]](repeating: [], count: walkers.count)
        for frame in 0..<frames {
            var boxes: [CGRect] = []
            var owners: [Int] = []
            for (index, walker) in walkers.enumerated() {
                guard var box = walker.box(at: frame) else { continue }
                let wobble = jitter * sin(Double(frame * 7 + index * 3))
                box = box.offsetBy(dx: wobble, dy: -wobble)
                boxes.append(box)
                owners.append(index)
            }
            let ids = tracker.update(boxes: boxes, timestampMs: Double(frame) * millisecondsPerFrame)
            for (owner, id) in zip(owners, ids) { received[owner].append(id) }
        }
        return received
    }
}

@Suite("BoxTracker")
struct BoxTrackerTests {
    @Test(
        "two faces crossing keep their own IDs",
        arguments: [
            // Side by side, crossing horizontally at the same height: they overlap completely.
            (Velocity(dx: 6, dy: 0), Velocity(dx: -6, dy: 0), 0.0),
            // Crossing diagonally.
            (Velocity(dx: 6, dy: 2), Velocity(dx: -6, dy: 2), 0.0),
            // Slow, with detector jitter.
            (Velocity(dx: 3, dy: 0), Velocity(dx: -3, dy: 0), 2.0),
        ])
    func crossing(left: Velocity, right: Velocity, jitter: Double) {
        let scene = Scene(
            walkers: [
                Walker(name: "left", start: CGPoint(x: 20, y: 100), step: left),
                Walker(name: "right", start: CGPoint(x: 500, y: 100), step: right),
            ], frames: 80, jitter: jitter)
        let ids = scene.run()
        #expect(Set(ids[0]).count == 1, "left: \(ids[0])")
        #expect(Set(ids[1]).count == 1, "right: \(ids[1])")
        #expect(ids[0].first != ids[1].first)
    }

    @Test(
        "a face crossing behind another (undetected while hidden) comes out with its ID",
        arguments: [4.0, 8.0])
    func crossingBehind(speed: Double) {
        // The back face is undetected while the front face covers more than half of it.
        let front = Walker(name: "front", start: CGPoint(x: 480, y: 100), step: Velocity(dx: -speed, dy: 0))
        var back = Walker(name: "back", start: CGPoint(x: 20, y: 100), step: Velocity(dx: speed, dy: 0))
        let frames = 120
        let overlapping = (0..<frames).filter { abs(back.box(at: $0)!.minX - front.box(at: $0)!.minX) < 40 }
        back.hidden = overlapping.first!...overlapping.last!
        let ids = Scene(walkers: [front, back], frames: frames).run()
        #expect(Set(ids[0]).count == 1, "front: \(ids[0])")
        #expect(Set(ids[1]).count == 1, "back: \(ids[1])")
        #expect(ids[0].first != ids[1].first)
    }

    @Test(
        "an occlusion keeps the ID when no longer than the allowed missed frames",
        arguments: [(gap: 3, allowed: 15, keeps: true), (gap: 15, allowed: 15, keeps: true),
                    (gap: 16, allowed: 15, keeps: false), (gap: 10, allowed: 5, keeps: false),
                    (gap: 10, allowed: 0, keeps: false)])
    func occlusion(gap: Int, allowed: Int, keeps: Bool) {
        let walker = Walker(
            name: "walker", start: CGPoint(x: 50, y: 50), step: Velocity(dx: 2, dy: 1), hidden: 20...(19 + gap))
        let ids = Scene(walkers: [walker], frames: 60).run(configuration: TrackerConfiguration(maximumMissedFrames: allowed))
        #expect(Set(ids[0]).count == (keeps ? 1 : 2), "\(ids[0])")
    }

    @Test("a face that stops while hidden is found again where it was last seen")
    func stopsWhileHidden() {
        var tracker = BoxTracker()
        let box = { (x: Double) in CGRect(x: x, y: 40, width: 80, height: 80) }
        var ids: [Int] = []
        for frame in 0..<10 { ids += tracker.update(boxes: [box(Double(frame) * 10)], timestampMs: Double(frame) * 40) }
        // Hidden for 8 frames, during which the prediction runs on 80 px; the face stayed at 90.
        for frame in 10..<18 { ids += tracker.update(boxes: [], timestampMs: Double(frame) * 40) }
        ids += tracker.update(boxes: [box(92)], timestampMs: 18 * 40)
        #expect(Set(ids) == [0])
    }

    @Test("a face that leaves and comes back after the survival window gets a new ID; a new face always does")
    func reentryAndNewFaces() {
        let leaving = Walker(name: "leaving", start: CGPoint(x: 100, y: 50), step: Velocity(dx: 0, dy: 0), hidden: 10...45)
        let latecomer = Walker(name: "latecomer", start: CGPoint(x: 400, y: 50), step: Velocity(dx: 0, dy: 0), hidden: 0...24)
        let ids = Scene(walkers: [leaving, latecomer], frames: 60).run()
        #expect(Set(ids[0].prefix(10)).count == 1 && Set(ids[0].dropFirst(10)).count == 1)
        #expect(ids[0].first != ids[0].last, "beyond maximumMissedFrames the face is a new track")
        #expect(Set(ids[1]).count == 1)
        #expect(Set(ids.flatMap { $0 }).count == 3, "IDs are never reused: \(ids)")
    }

    @Test("fast motion sampled sparsely is followed by its predicted position")
    func motionPrediction() {
        // 30 px per frame with an 80 px box: the raw overlap of consecutive boxes is 0.45 but two
        // frames apart (a missed detection) it is 0.14, below the threshold; prediction keeps it.
        let walker = Walker(
            name: "runner", start: CGPoint(x: 0, y: 100), step: Velocity(dx: 30, dy: 0), hidden: 6...6)
        let ids = Scene(walkers: [walker], frames: 15).run(configuration: TrackerConfiguration(minimumOverlap: 0.3))
        #expect(Set(ids[0]).count == 1, "\(ids[0])")
    }

    @Test("detections are matched to the closest predicted track, not in input order")
    func matchingOrder() {
        var tracker = BoxTracker()
        let a = CGRect(x: 0, y: 0, width: 100, height: 100)
        let b = CGRect(x: 120, y: 0, width: 100, height: 100)
        #expect(tracker.update(boxes: [a, b], timestampMs: 0) == [0, 1])
        #expect(tracker.update(boxes: [b.offsetBy(dx: 5, dy: 0), a.offsetBy(dx: 5, dy: 0)], timestampMs: 33) == [1, 0])
        #expect(tracker.liveTrackIDs == [0, 1])
    }
}

@Suite("GreedyAssignment")
struct GreedyAssignmentTests {
    @Test(
        "pairs the best scores first, each row and column once, above the minimum",
        arguments: [
            ([[0.9, 0.3], [0.8, 0.1]], 0.2, [[0, 0]]),
            ([[0.9, 0.3], [0.8, 0.5]], 0.2, [[0, 0], [1, 1]]),
            ([[0.4, 0.6], [0.7, 0.2]], 0.2, [[1, 0], [0, 1]]),
            ([[0.5, 0.5]], 0.2, [[0, 0]]),
            ([[0.1]], 0.2, []),
            ([], 0.2, []),
        ] as [([[Double]], Double, [[Int]])])
    func pairs(scores: [[Double]], minimum: Double, expected: [[Int]]) {
        #expect(GreedyAssignment.pairs(scores: scores, minimum: minimum).map { [$0.row, $0.column] } == expected)
    }
}

@Suite("BoxOverlap")
struct BoxOverlapTests {
    @Test(
        "is the shared area over the combined area",
        arguments: [
            (CGRect(x: 0, y: 0, width: 10, height: 10), CGRect(x: 0, y: 0, width: 10, height: 10), 1.0),
            (CGRect(x: 0, y: 0, width: 10, height: 10), CGRect(x: 5, y: 0, width: 10, height: 10), 1.0 / 3),
            (CGRect(x: 0, y: 0, width: 10, height: 10), CGRect(x: 2, y: 2, width: 5, height: 5), 0.25),
            (CGRect(x: 0, y: 0, width: 10, height: 10), CGRect(x: 10, y: 0, width: 10, height: 10), 0.0),
            (CGRect(x: 0, y: 0, width: 0, height: 0), CGRect(x: 0, y: 0, width: 0, height: 0), 0.0),
        ])
    func iou(a: CGRect, b: CGRect, expected: Double) {
        #expect(abs(BoxOverlap.intersectionOverUnion(a, b) - expected) < 1e-12)
        #expect(abs(BoxOverlap.intersectionOverUnion(b, a) - expected) < 1e-12)
    }
}
