import FaceKit
import Foundation

/// A development photo as a user might meet it: turned by some angle, padded, or cut close around
/// a face, with where its faces are after the change.
///
/// The truth of a face is a point people placed or a box's centre (its nose, about), and its
/// size when known: a detection finds the face when its box holds the point and, when the size is
/// known, its own size (the square root of its area) is within ``sizeRange`` of the face's. That
/// measure holds at any angle, where a turned label box no longer matches a detector's upright
/// one.
///
/// ```swift
/// let photo = PhotoVariant(image: image, faces: labels)
/// let turned = try photo.turned(byDegrees: 90)   // the image turned clockwise, its faces with it
/// ```
public struct PhotoVariant: Sendable {
    /// One face: a point inside it (its nose, or a box's centre) and its size when known.
    public struct Face: Sendable {
        public var point: CGPoint
        /// The square root of the face's box area, in pixels; `nil` when only a point is known.
        public var size: Double?

        public init(point: CGPoint, size: Double?) {
            self.point = point
            self.size = size
        }

        /// A labelled box: its centre and size.
        public init(box: CGRect) {
            self.init(point: CGPoint(x: box.midX, y: box.midY), size: (box.width * box.height).squareRoot())
        }
    }

    /// A detection's size over the face's, for the two to be one face. Boxes drawn by people,
    /// dlib's tight ones and YuNet's (forehead included) differ by about 1.5x in area.
    public static let sizeRange = 0.5...2.2

    public var image: FaceImage
    public var faces: [Face]

    public init(image: FaceImage, faces: [Face]) {
        self.image = image
        self.faces = faces
    }

    /// The image turned clockwise by `degrees` about its centre onto a canvas that holds all of
    /// it (black corners, as a photo editor's rotation leaves them).
    public func turned(byDegrees degrees: Double) throws(FaceKitError) -> PhotoVariant {
        let radians = degrees * .pi / 180
        let (c, s) = (cos(radians), sin(radians))
        let (w, h) = (Double(image.width), Double(image.height))
        // Quarter turns exactly, so that their sides are whole.
        let width = Int((abs(c) * w + abs(s) * h).rounded())
        let height = Int((abs(s) * w + abs(c) * h).rounded())
        // Image point p goes to q = centre' + R (p - centre), R = [c -s; s c] (clockwise on
        // screen with y down); the warp takes the inverse, p = centre + R^T (q - centre').
        let (cx, cy, ncx, ncy) = (w / 2, h / 2, Double(width) / 2, Double(height) / 2)
        let inverse = [c, s, cx - c * ncx - s * ncy, -s, c, cy + s * ncx - c * ncy]
        let image = try image.warped(affine: inverse, width: width, height: height)
        let faces = faces.map { face in
            let (dx, dy) = (Double(face.point.x) - cx, Double(face.point.y) - cy)
            return Face(point: CGPoint(x: ncx + c * dx - s * dy, y: ncy + s * dx + c * dy), size: face.size)
        }
        return PhotoVariant(image: image, faces: faces)
    }

    /// The image with a plain grey border `fraction` of its width and height wide on each side:
    /// how a tight face crop (CEW's, open-faces') is given the surroundings a photo has. (Edge
    /// pixels copied outwards hide about a tenth of such faces from YuNet; grey does not.)
    public func padded(by fraction: Double) throws(FaceKitError) -> PhotoVariant {
        let (dx, dy) = (Int((Double(image.width) * fraction).rounded()), Int((Double(image.height) * fraction).rounded()))
        let (width, height) = (image.width + 2 * dx, image.height + 2 * dy)
        let source = try image.pixels(format: .rgb8)
        var pixels = [UInt8](repeating: 128, count: width * height * 3)
        for row in 0..<image.height {
            let from = row * image.width * 3, to = ((row + dy) * width + dx) * 3
            pixels.replaceSubrange(to..<(to + image.width * 3), with: source[from..<(from + image.width * 3)])
        }
        let made: Result<FaceImage, FaceKitError> = pixels.withUnsafeBytes { raw in
            Result { () throws(FaceKitError) in
                try FaceImage(pixels: raw, width: width, height: height, bytesPerRow: width * 3, format: .rgb8)
            }
        }
        let padded = try made.get()
        return PhotoVariant(
            image: padded,
            faces: faces.map { Face(point: CGPoint(x: $0.point.x + Double(dx), y: $0.point.y + Double(dy)), size: $0.size) })
    }

    /// `region` of the image (kept inside it), at most `longSide` pixels on its long side: a
    /// close-up, where a face may be larger than the picture or cut by its edge.
    public func cropped(to region: CGRect, longSide: Int = 640) throws(FaceKitError) -> PhotoVariant {
        let region = region.intersection(CGRect(x: 0, y: 0, width: image.width, height: image.height))
        let scale = min(1, Double(longSide) / max(region.width, region.height))
        let (width, height) = (max(1, Int((region.width * scale).rounded())), max(1, Int((region.height * scale).rounded())))
        let cut = try image.resized(region: region, width: width, height: height)
        return PhotoVariant(
            image: cut,
            faces: faces.map { face in
                Face(
                    point: CGPoint(x: (face.point.x - region.minX) * scale, y: (face.point.y - region.minY) * scale),
                    size: face.size.map { $0 * scale })
            })
    }

    /// The image no larger than `longSide` on its long side (a 4000 px photo turned by 30 degrees
    /// would not fit a warp), faces scaled with it.
    public func reduced(toLongSide longSide: Int) throws(FaceKitError) -> PhotoVariant {
        guard max(image.width, image.height) > longSide else { return self }
        return try cropped(to: CGRect(x: 0, y: 0, width: image.width, height: image.height), longSide: longSide)
    }

    /// The faces a detection box could have found (it holds their point, and is of a fitting
    /// size), nearest first.
    public func candidateFaces(of box: CGRect) -> [Int] {
        faces.indices.filter { index in
            let face = faces[index]
            guard box.contains(face.point) else { return false }
            guard let size = face.size else { return true }
            return Self.sizeRange.contains((box.width * box.height).squareRoot() / size)
        }.sorted { a, b in
            hypot(Double(box.midX - faces[a].point.x), Double(box.midY - faces[a].point.y))
                < hypot(Double(box.midX - faces[b].point.x), Double(box.midY - faces[b].point.y))
        }
    }

    /// Which of `detections` find which faces: each face is matched to at most one detection
    /// that holds its point (and is of a fitting size), nearest centre first.
    public func matches(_ detections: [CGRect]) -> [(face: Int, detection: Int)] {
        var pairs: [(face: Int, detection: Int, distance: Double)] = []
        for (f, face) in faces.enumerated() {
            for (d, box) in detections.enumerated() where box.contains(face.point) {
                if let size = face.size, !Self.sizeRange.contains((box.width * box.height).squareRoot() / size) { continue }
                pairs.append((f, d, hypot(Double(box.midX - face.point.x), Double(box.midY - face.point.y))))
            }
        }
        var usedFaces = Set<Int>(), usedDetections = Set<Int>()
        var result: [(face: Int, detection: Int)] = []
        for pair in pairs.sorted(by: { $0.distance < $1.distance })
        where !usedFaces.contains(pair.face) && !usedDetections.contains(pair.detection) {
            usedFaces.insert(pair.face)
            usedDetections.insert(pair.detection)
            result.append((pair.face, pair.detection))
        }
        return result
    }
}
