import Foundation

/// Keeps the best of overlapping detections: the usual last step of a detector, here to merge
/// the passes of a search (tiles overlap, and a mirrored pass finds the same faces again).
///
/// ```swift
/// NonMaximumSuppression.kept(scores: [0.9, 0.8, 0.7],
///                            boxes: [CGRect(x: 0, y: 0, width: 10, height: 10),
///                                    CGRect(x: 1, y: 0, width: 10, height: 10),
///                                    CGRect(x: 50, y: 0, width: 10, height: 10)],
///                            maximumOverlap: 0.3)   // [0, 2]
/// ```
enum NonMaximumSuppression {
    /// Indices of the kept boxes, best score first: a box is dropped when it overlaps a kept,
    /// better one with intersection over union above `maximumOverlap`. Ties keep the lower index.
    static func kept(scores: [Double], boxes: [CGRect], maximumOverlap: Double) -> [Int] {
        precondition(scores.count == boxes.count, "NonMaximumSuppression.kept: \(scores.count) scores, \(boxes.count) boxes")
        let order = scores.indices.sorted { (scores[$0], -$0) > (scores[$1], -$1) }
        var kept: [Int] = []
        for index in order
        where kept.allSatisfy({ BoxOverlap.intersectionOverUnion(boxes[$0], boxes[index]) <= maximumOverlap }) {
            kept.append(index)
        }
        return kept
    }
}
