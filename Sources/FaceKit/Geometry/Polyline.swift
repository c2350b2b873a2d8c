import Foundation

/// Resampling of a few observed points into the fixed number ML Kit gives a contour.
///
/// dlib gives 6 points per eye where ML Kit gives 16, so the points are joined by a smooth curve
/// and new points are placed evenly along it. The curve is a centripetal Catmull-Rom spline
/// (alpha 0.5): it passes through every given point and, unlike the uniform kind, never forms
/// cusps or loops when neighbouring points are unevenly spaced, as dlib's points often are.
///
/// ```swift
/// Polyline.resampled([CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0)], count: 3, closed: false)
/// // [(0, 0), (5, 0), (10, 0)]
/// ```
enum Polyline {
    /// Curve samples per input segment before resampling: enough that arc lengths measured on the
    /// samples are within a fraction of a pixel for face-sized curves.
    static let samplesPerSegment = 32

    /// `count` points evenly spaced by arc length along a smooth curve through `points`.
    ///
    /// - Open curves keep both endpoints: the result starts at `points.first` and ends at
    ///   `points.last`, with `count - 1` equal arc-length steps between them.
    /// - Closed curves start at `points.first` and take `count` equal steps around the loop, so
    ///   the last point is one step short of the first (the loop is not repeated).
    /// - Direction follows the input order.
    static func resampled(_ points: [CGPoint], count: Int, closed: Bool) -> [CGPoint] {
        precondition(!points.isEmpty, "Polyline.resampled needs at least one point")
        precondition(count >= 1, "Polyline.resampled needs count >= 1, got \(count)")
        let curve = smoothCurve(through: points, closed: closed)
        let lengths = cumulativeLengths(of: curve)
        let total = lengths.last ?? 0
        guard total > 0, total.isFinite else { return Array(repeating: points[0], count: count) }
        if !closed && count == 1 { return [points[0]] }

        let step = total / Double(closed ? count : count - 1)
        var result: [CGPoint] = []
        result.reserveCapacity(count)
        var segment = 0
        for index in 0..<count {
            let target = step * Double(index)
            while segment < curve.count - 2 && lengths[segment + 1] < target { segment += 1 }
            let span = lengths[segment + 1] - lengths[segment]
            let fraction = span > 0 ? min(max((target - lengths[segment]) / span, 0), 1) : 0
            result.append(curve[segment].interpolated(to: curve[segment + 1], fraction: fraction))
        }
        if !closed { result[count - 1] = points[points.count - 1] }  // exact, not within rounding
        return result
    }

    /// A dense polyline along the centripetal Catmull-Rom spline through `points`.
    ///
    /// Open curves get a mirrored phantom point beyond each end, so the curve leaves each end
    /// heading toward its neighbour. Closed curves wrap around and end where they start.
    static func smoothCurve(through points: [CGPoint], closed: Bool) -> [CGPoint] {
        let n = points.count
        guard n > 1 else { return points }
        if !closed && n == 2 { return points }

        func point(_ index: Int) -> CGPoint {
            if closed { return points[(index % n + n) % n] }
            if index < 0 { return points[0] * 2 - points[1] }
            if index >= n { return points[n - 1] * 2 - points[n - 2] }
            return points[index]
        }

        let segmentCount = closed ? n : n - 1
        var curve: [CGPoint] = []
        curve.reserveCapacity(segmentCount * samplesPerSegment + 1)
        for segment in 0..<segmentCount {
            let p0 = point(segment - 1)
            let p1 = point(segment)
            let p2 = point(segment + 1)
            let p3 = point(segment + 2)
            for sample in 0..<samplesPerSegment {
                curve.append(catmullRom(p0, p1, p2, p3, t: Double(sample) / Double(samplesPerSegment)))
            }
        }
        curve.append(closed ? points[0] : points[n - 1])
        return curve
    }

    /// The point at `t` in 0...1 on the centripetal Catmull-Rom segment from `p1` to `p2`, in the
    /// Hermite form that tolerates repeated points (a zero knot interval only zeroes its term).
    static func catmullRom(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, t: Double) -> CGPoint {
        let alpha = 0.5
        let epsilon = 1e-9
        let d01 = max(pow(p0.distance(to: p1), alpha), epsilon)
        let d12 = max(pow(p1.distance(to: p2), alpha), epsilon)
        let d23 = max(pow(p2.distance(to: p3), alpha), epsilon)
        let m1 = (p2 - p1) + d12 * ((p1 - p0) / d01 - (p2 - p0) / (d01 + d12))
        let m2 = (p2 - p1) + d12 * ((p3 - p2) / d23 - (p3 - p1) / (d12 + d23))
        let t2 = t * t
        let t3 = t2 * t
        return (2 * t3 - 3 * t2 + 1) * p1 + (t3 - 2 * t2 + t) * m1 + (-2 * t3 + 3 * t2) * p2 + (t3 - t2) * m2
    }

    /// Arc length from the first point to each point of a polyline; starts at 0.
    static func cumulativeLengths(of polyline: [CGPoint]) -> [Double] {
        var lengths = [0.0]
        lengths.reserveCapacity(polyline.count)
        for index in polyline.indices.dropFirst() {
            lengths.append(lengths[index - 1] + polyline[index - 1].distance(to: polyline[index]))
        }
        return lengths
    }
}
