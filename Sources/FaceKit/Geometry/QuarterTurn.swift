import Foundation

/// A turn of the image plane about its origin by a whole number of quarter turns, clockwise on
/// screen (x right, y down): how a face found in a turned search pass is brought upright.
///
/// ```swift
/// QuarterTurn(1).point(CGPoint(x: 1, y: 0))   // (0, 1): right turns to down
/// QuarterTurn(1).inverse.count                // 3
/// ```
struct QuarterTurn: Equatable, Sendable {
    /// Clockwise quarter turns, 0 ... 3.
    let count: Int

    init(_ count: Int) { self.count = (count % 4 + 4) % 4 }

    /// The turn that undoes this one.
    var inverse: QuarterTurn { QuarterTurn(4 - count) }

    func point(_ point: CGPoint) -> CGPoint {
        switch count {
        case 1: CGPoint(x: -point.y, y: point.x)
        case 2: CGPoint(x: -point.x, y: -point.y)
        case 3: CGPoint(x: point.y, y: -point.x)
        default: point
        }
    }

    /// The turned box (its corners turned; a quarter turn swaps width and height).
    func box(_ box: CGRect) -> CGRect {
        let a = point(CGPoint(x: box.minX, y: box.minY)), b = point(CGPoint(x: box.maxX, y: box.maxY))
        return CGRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
    }
}
