import Foundation

// `package` (the tools see it, users of the library do not): FaceKitDatasets matches detections and
// tracks to labelled boxes with the runtime's own overlap, so that evaluation means by "the same
// face" what FaceKit does.

/// Intersection over union, FaceKit's measure of "the same face" (for the tracker, and for
/// pairing the two detectors' boxes): it does not depend on the face's size, so one threshold
/// serves small and large faces alike.
///
/// ```swift
/// BoxOverlap.intersectionOverUnion(CGRect(x: 0, y: 0, width: 10, height: 10),
///                                  CGRect(x: 5, y: 0, width: 10, height: 10))   // 1/3
/// ```
package enum BoxOverlap {
    /// 1 for the same box, 0 for disjoint or empty boxes.
    package static func intersectionOverUnion(_ a: CGRect, _ b: CGRect) -> Double {
        let overlap = a.intersection(b)
        guard !overlap.isNull, !overlap.isEmpty else { return 0 }
        let shared = overlap.area
        let union = a.area + b.area - shared
        return union > 0 ? shared / union : 0
    }
}

extension CGRect {
    var area: Double { Double(width * height) }
}
