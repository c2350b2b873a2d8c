import FaceKit
import Foundation

/// Matches detected boxes to labelled faces and counts hits, misses and false positives.
///
/// A labelled box is found when a detection overlaps it with intersection over union of at least
/// `minimumOverlap`, each detection matching at most one label (greedy, best overlap first).
/// dlib's boxes are tighter than many labellers', so 0.3 is the usual threshold for these sets.
public struct DetectionTally: Sendable, Equatable {
    public var labelled = 0
    public var found = 0
    public var falsePositives = 0

    public init() {}

    public var recall: Double { labelled == 0 ? 0 : Double(found) / Double(labelled) }

    public mutating func add(detections: [CGRect], labels: [CGRect], minimumOverlap: Double = 0.3) {
        let overlaps = detections.map { detection in labels.map { BoxOverlap.intersectionOverUnion(detection, $0) } }
        let pairs = GreedyAssignment.pairs(scores: overlaps, minimum: minimumOverlap)
        let usedDetections = Set(pairs.map(\.row)), usedLabels = Set(pairs.map(\.column))
        labelled += labels.count
        found += usedLabels.count
        falsePositives += detections.count - usedDetections.count
    }

    /// Counts points (e.g. hand-placed noses) that fall inside a detection, one detection each.
    public mutating func add(detections: [CGRect], points: [CGPoint]) {
        var used = Set<Int>()
        for point in points {
            if let hit = detections.indices.first(where: { !used.contains($0) && detections[$0].contains(point) }) {
                used.insert(hit)
            }
        }
        labelled += points.count
        found += used.count
        falsePositives += detections.count - used.count
    }
}

extension CGRect {
    /// Area of the intersection over area of the union; 0 for disjoint boxes (FaceKit's own
    /// measure, `BoxOverlap`).
    public func intersectionOverUnion(_ other: CGRect) -> Double {
        BoxOverlap.intersectionOverUnion(self, other)
    }
}
