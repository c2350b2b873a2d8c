import Foundation

/// Chooses where `facekit annotate` puts each face's text so that labels stay inside the image
/// and cover as little as possible of the faces and of each other.
///
/// A label is tried against its face's box in a fixed order of places: below or above first, as
/// asked (aligned with the box's left edge, then its right edge, then centred), then the other
/// side, then beside the box on the right and on the left; each is moved inside the image when
/// it sticks out. The first place that overlaps no face box and no label placed before wins.
/// When every place overlaps something, the one with the least overlapping area does, an area
/// of label counting twice (text over text is unreadable); ties go to the earlier place.
///
/// ```swift
/// var layout = LabelPlacement(image: CGSize(width: 640, height: 360), faces: [box])
/// layout.place(CGSize(width: 80, height: 30), near: box, preferAbove: false)   // under the box
/// ```
struct LabelPlacement {
    let image: CGSize
    /// Every face box, which labels should not cover.
    let faces: [CGRect]
    /// The labels placed so far.
    private(set) var placed: [CGRect] = []

    init(image: CGSize, faces: [CGRect]) {
        self.image = image
        self.faces = faces
    }

    /// Places a label of `size` near `box` and remembers it; returns its frame in whole pixels.
    mutating func place(_ size: CGSize, near box: CGRect, preferAbove: Bool) -> CGRect {
        let xs = [box.minX, box.maxX - size.width, box.midX - size.width / 2]
        let below = xs.map { CGPoint(x: $0, y: box.maxY) }
        let above = xs.map { CGPoint(x: $0, y: box.minY - size.height) }
        let beside = [CGPoint(x: box.maxX, y: box.minY), CGPoint(x: box.minX - size.width, y: box.minY)]
        let order = (preferAbove ? above + below : below + above) + beside
        var best: (frame: CGRect, cost: Double)?
        for origin in order {
            let frame = inside(CGRect(origin: origin, size: size))
            func area(_ others: [CGRect]) -> Double {
                others.reduce(0.0) { total, other in
                    // Rounding to whole pixels may make touching rectangles overlap by a pixel.
                    let overlap = frame.intersection(other)
                    return overlap.isNull || overlap.width <= 1 || overlap.height <= 1
                        ? total : total + Double(overlap.width * overlap.height)
                }
            }
            let cost = area(faces) + 2 * area(placed)
            if best == nil || cost < best!.cost { best = (frame, cost) }
            if cost == 0 { break }
        }
        placed.append(best!.frame)
        return best!.frame
    }

    /// `frame` moved (not resized) to lie inside the image as far as it can, in whole pixels.
    private func inside(_ frame: CGRect) -> CGRect {
        let x = min(max(0, frame.minX), max(0, image.width - frame.width))
        let y = min(max(0, frame.minY), max(0, image.height - frame.height))
        return CGRect(
            x: x.rounded(), y: y.rounded(), width: frame.width.rounded(.up), height: frame.height.rounded(.up))
    }
}
