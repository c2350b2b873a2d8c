import Foundation

@testable import FaceKit

extension GeometryTests {
    /// A hand-made frontal 68-point face for geometry tests, and transforms of it.
    ///
    /// Units: the jaw ends are 2 apart; x to the image's right, y down; origin between the jaw ends
    /// at eye level. `frontal()` scales by 100 and centres on (320, 240), so the face is 200 px wide.
    enum SyntheticFace {
        static let centre = CGPoint(x: 320, y: 240)
        static let scale = 100.0

        /// Unit-frame points in iBUG 300-W order; the subject's right side has negative x.
        static let unitPoints: [CGPoint] = {
            var p: [CGPoint] = []
            // Jaw 0-16: lower half-ellipse from (-1, 0) through the chin (0, 1.3) to (1, 0).
            for i in 0...16 {
                let angle = Double.pi * Double(i) / 16
                p.append(CGPoint(x: -cos(angle), y: 1.3 * sin(angle)))
            }
            // Eyebrows 17-21 (right, outer to inner) and 22-26 (left, inner to outer).
            let browX = [-0.75, -0.6, -0.45, -0.3, -0.15]
            let browY = [-0.33, -0.4, -0.42, -0.41, -0.37]
            for i in 0..<5 { p.append(CGPoint(x: browX[i], y: browY[i])) }
            for i in (0..<5).reversed() { p.append(CGPoint(x: -browX[i], y: browY[i])) }
            // Nose bridge 27-30, lower nose 31-35.
            for y in [-0.15, 0.05, 0.25, 0.45] { p.append(CGPoint(x: 0, y: y)) }
            for (x, y) in [(-0.2, 0.55), (-0.1, 0.58), (0.0, 0.6), (0.1, 0.58), (0.2, 0.55)] {
                p.append(CGPoint(x: x, y: y))
            }
            // Right eye 36-41: outer corner, upper lid, inner corner, lower lid.
            for (x, y) in [
                (-0.65, -0.1), (-0.52, -0.17), (-0.38, -0.17), (-0.25, -0.1), (-0.38, -0.05), (-0.52, -0.05),
            ] {
                p.append(CGPoint(x: x, y: y))
            }
            // Left eye 42-47: inner corner, upper lid, outer corner, lower lid.
            for (x, y) in [(0.25, -0.1), (0.38, -0.17), (0.52, -0.17), (0.65, -0.1), (0.52, -0.05), (0.38, -0.05)] {
                p.append(CGPoint(x: x, y: y))
            }
            // Outer lips 48-59, clockwise from the subject's right corner.
            for (x, y) in [
                (-0.35, 0.85), (-0.22, 0.78), (-0.1, 0.75), (0.0, 0.77), (0.1, 0.75), (0.22, 0.78),
                (0.35, 0.85), (0.22, 0.95), (0.1, 0.99), (0.0, 1.0), (-0.1, 0.99), (-0.22, 0.95),
            ] {
                p.append(CGPoint(x: x, y: y))
            }
            // Inner lips 60-67, clockwise from the subject's right inner corner.
            for (x, y) in [
                (-0.3, 0.85), (-0.1, 0.83), (0.0, 0.84), (0.1, 0.83), (0.3, 0.85), (0.1, 0.88), (0.0, 0.89),
                (-0.1, 0.88),
            ] {
                p.append(CGPoint(x: x, y: y))
            }
            return p
        }()

        /// The frontal face in pixels.
        static func frontal() -> FaceShape {
            FaceShape(points: unitPoints.map { centre + $0 * scale })
        }

        /// The frontal face rotated counter-clockwise on screen by `degrees` about `centre`.
        static func rolled(degrees: Double) -> FaceShape {
            let angle = degrees * Double.pi / 180
            // Counter-clockwise on screen with y down is a negative angle in the usual formula.
            let c = cos(-angle)
            let s = sin(-angle)
            return FaceShape(
                points: frontal().points.map { point in
                    let v = point - centre
                    return centre + CGPoint(x: v.x * c - v.y * s, y: v.x * s + v.y * c)
                })
        }

        /// The frontal face reflected left to right: what a face never looks like.
        static func mirrored() -> FaceShape {
            FaceShape(points: frontal().points.map { CGPoint(x: 2 * centre.x - $0.x, y: $0.y) })
        }
    }

    /// Whether two numbers agree within `tolerance`.
    static func isClose(_ a: Double, _ b: Double, within tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

    /// Whether two points agree within `tolerance` pixels.
    static func isClose(_ a: CGPoint, _ b: CGPoint, within tolerance: Double = 1e-9) -> Bool {
        a.distance(to: b) <= tolerance
    }
}
