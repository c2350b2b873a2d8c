import Foundation

/// Plane-vector arithmetic on `CGPoint`, so the geometry code reads like the formulas it implements.
///
/// Internal only: points and vectors share one type here, which is convenient inside the geometry
/// code but not an API to offer users.
extension CGPoint {
    static func + (lhs: CGPoint, rhs: CGPoint) -> CGPoint { CGPoint(x: lhs.x + rhs.x, y: lhs.y + rhs.y) }
    static func - (lhs: CGPoint, rhs: CGPoint) -> CGPoint { CGPoint(x: lhs.x - rhs.x, y: lhs.y - rhs.y) }
    static func * (lhs: CGPoint, rhs: Double) -> CGPoint { CGPoint(x: lhs.x * rhs, y: lhs.y * rhs) }
    static func * (lhs: Double, rhs: CGPoint) -> CGPoint { rhs * lhs }
    static func / (lhs: CGPoint, rhs: Double) -> CGPoint { CGPoint(x: lhs.x / rhs, y: lhs.y / rhs) }

    /// Dot product, treating both points as vectors from the origin.
    func dot(_ other: CGPoint) -> Double { Double(x * other.x + y * other.y) }

    /// Euclidean length, treating the point as a vector from the origin.
    var length: Double { Double(hypot(x, y)) }

    /// Distance to another point.
    func distance(to other: CGPoint) -> Double { (other - self).length }

    /// The vector turned a quarter turn clockwise on screen (image y points down):
    /// `(1, 0)` becomes `(0, 1)`, so a face's eye axis becomes its "down" direction.
    var perpendicularClockwise: CGPoint { CGPoint(x: -y, y: x) }

    /// The unit vector in the same direction, or `nil` for a zero or non-finite vector.
    var normalized: CGPoint? {
        let length = self.length
        guard length > 0, length.isFinite else { return nil }
        return self / length
    }

    /// The point `fraction` of the way from `self` to `other`.
    func interpolated(to other: CGPoint, fraction: Double) -> CGPoint { self + (other - self) * fraction }

    /// The centroid of a non-empty collection of points.
    static func mean<C: Collection<CGPoint>>(of points: C) -> CGPoint {
        precondition(!points.isEmpty, "CGPoint.mean(of:) needs at least one point")
        return points.reduce(CGPoint.zero, +) / Double(points.count)
    }

    /// The point mapped by the 2 x 3 affine map `a` (row by row, as
    /// ``FaceImage/warped(affine:width:height:border:)`` takes it):
    /// (a[0] x + a[1] y + a[2], a[3] x + a[4] y + a[5]).
    func applying(affine a: [Double]) -> CGPoint {
        let (x, y) = (Double(self.x), Double(self.y))
        return CGPoint(x: a[0] * x + a[1] * y + a[2], y: a[3] * x + a[4] * y + a[5])
    }
}
