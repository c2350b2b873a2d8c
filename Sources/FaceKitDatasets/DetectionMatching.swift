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
        var pairs: [(overlap: Double, detection: Int, label: Int)] = []
        for (d, detection) in detections.enumerated() {
            for (l, label) in labels.enumerated() {
                let overlap = detection.intersectionOverUnion(label)
                if overlap >= minimumOverlap { pairs.append((overlap, d, l)) }
            }
        }
        var usedDetections = Set<Int>(), usedLabels = Set<Int>()
        for pair in pairs.sorted(by: { $0.overlap > $1.overlap })
        where !usedDetections.contains(pair.detection) && !usedLabels.contains(pair.label) {
            usedDetections.insert(pair.detection)
            usedLabels.insert(pair.label)
        }
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
    /// Area of the intersection over area of the union; 0 for disjoint boxes.
    public func intersectionOverUnion(_ other: CGRect) -> Double {
        let overlap = intersection(other)
        guard !overlap.isNull, overlap.width > 0, overlap.height > 0 else { return 0 }
        let shared = Double(overlap.width * overlap.height)
        return shared / (Double(width * height) + Double(other.width * other.height) - shared)
    }
}
