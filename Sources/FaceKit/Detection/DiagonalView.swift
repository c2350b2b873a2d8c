import Foundation

/// The image turned 45 degrees clockwise about its centre and resized, on a square canvas that
/// holds all of it (black corners): searched by quarter turns, it shows upright the faces rolled
/// about 45, 135, 225 or 315 degrees, between the upright search and the quarter turns, where
/// YuNet, trained on upright faces, scores them lowest.
///
/// ```swift
/// let view = DiagonalView(imageWidth: 1000, imageHeight: 600, scale: 0.5)
/// (view.width, view.height)                 // (566, 566)
/// view.imagePoint(CGPoint(x: 283, y: 283))  // (500, 300): the centres match
/// ```
struct DiagonalView: Sendable {
    /// Clockwise degrees the image is turned by in the view.
    static let degrees = 45.0

    /// View pixels per image pixel.
    let scale: Double
    let width: Int
    let height: Int
    private let imageCentre: CGPoint
    private let viewCentre: CGPoint

    init(imageWidth: Int, imageHeight: Int, scale: Double) {
        self.scale = scale
        let side = max(1, Int(((Double(imageWidth) + Double(imageHeight)) * Self.cosine * scale).rounded(.up)))
        (width, height) = (side, side)
        imageCentre = CGPoint(x: Double(imageWidth) / 2, y: Double(imageHeight) / 2)
        viewCentre = CGPoint(x: Double(side) / 2, y: Double(side) / 2)
    }

    private static let cosine = (0.5 as Double).squareRoot()

    /// The map from view pixels to image pixels, as ``FaceImage/warped(affine:width:height:border:)``
    /// takes it: image = centre + R(-45°) (view - view centre) / scale.
    var affine: [Double] {
        let c = Self.cosine / scale
        return [
            c, c, Double(imageCentre.x) - c * Double(viewCentre.x) - c * Double(viewCentre.y),
            -c, c, Double(imageCentre.y) + c * Double(viewCentre.x) - c * Double(viewCentre.y),
        ]
    }

    func imagePoint(_ point: CGPoint) -> CGPoint { point.applying(affine: affine) }

    /// The view of `image`.
    func image(of image: FaceImage) throws(FaceKitError) -> FaceImage {
        try image.warped(affine: affine, width: width, height: height)
    }

    /// A face found in the view, in the image's pixels: its keypoints exactly, its box of the
    /// same size about the same centre (a box turned 45 degrees has no axis-aligned equal; this
    /// is the face's own size, as YuNet's box of a rolled face is), marked as found turned.
    func imageFace(_ face: NativeYuNet.Face) -> NativeYuNet.Face {
        var mapped = face
        let centre = imagePoint(CGPoint(x: face.box.midX, y: face.box.midY))
        let (boxWidth, boxHeight) = (Double(face.box.width) / scale, Double(face.box.height) / scale)
        mapped.box = CGRect(
            x: Double(centre.x) - boxWidth / 2, y: Double(centre.y) - boxHeight / 2, width: boxWidth, height: boxHeight)
        mapped.keypoints = face.keypoints.map(imagePoint)
        mapped.viewDegrees = Self.degrees
        return mapped
    }
}

/// A clockwise turn of the plane about its origin by any angle, in degrees.
func turnedClockwise(_ point: CGPoint, degrees: Double) -> CGPoint {
    let radians = degrees * .pi / 180
    let (c, s) = (cos(radians), sin(radians))
    let (x, y) = (Double(point.x), Double(point.y))
    return CGPoint(x: c * x - s * y, y: s * x + c * y)
}
