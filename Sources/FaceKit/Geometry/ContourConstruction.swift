import Foundation

/// Builds ML Kit's 15 contours (133 points) from dlib's 68 points.
///
/// Most contours resample a smooth curve through dlib points (see ``Polyline``). Three parts have
/// no dlib points and are estimated from face proportions: the forehead arc of the face oval, the
/// lower edges of the eyebrows, and (by interpolation only) the eye loops between dlib's 6 points.
///
/// Orderings, for a frontal upright face ("image left" = subject's right):
/// - face: starts at the top centre of the forehead and goes clockwise in the image.
/// - eyebrows (top and bottom): from the image's left end to its right end, as dlib orders them
///   (right brow outer to inner, left brow inner to outer).
/// - eyes: start at the image-left corner (right eye: outer corner 36; left eye: inner corner
///   42), clockwise in the image: along the upper lid, then back along the lower lid.
/// - upperLipTop, upperLipBottom: image left to right. lowerLipTop, lowerLipBottom: image right
///   to left. Together they run clockwise around each lip line, as dlib's points do.
/// - noseBridge: top (27) then tip (30). noseBottom: 31, 33, 35 (image left to right).
///
/// ```swift
/// ContourConstruction.contours(from: shape).reduce(0) { $0 + $1.points.count }  // 133
/// ```
enum ContourConstruction {
    /// Eyebrow thickness as a fraction of the distance between the outer eye corners; an adult
    /// eyebrow is about 1 cm thick and the outer corners about 9-10 cm apart.
    static let eyebrowThicknessRatio = 0.1

    /// Arc samples per quarter of the estimated forehead ellipse, before resampling.
    static let foreheadSamplesPerQuarter = 6

    /// All 15 contours in `ContourType.allCases` order, each with `type.pointCount` points.
    static func contours(from shape: FaceShape) -> [FaceContour] {
        let p = shape.points
        return FaceContour.ContourType.allCases.map { type in
            let points: [CGPoint] =
                switch type {
                case .face: faceOval(of: shape)
                case .leftEyebrowTop: shape.leftEyebrow
                case .leftEyebrowBottom:
                    eyebrowBottom(top: shape.leftEyebrow, eyeCentre: shape.leftEyeCentre, of: shape)
                case .rightEyebrowTop: shape.rightEyebrow
                case .rightEyebrowBottom:
                    eyebrowBottom(top: shape.rightEyebrow, eyeCentre: shape.rightEyeCentre, of: shape)
                case .leftEye: eyeLoop(shape.leftEye)
                case .rightEye: eyeLoop(shape.rightEye)
                case .upperLipTop: resample([48, 49, 50, 51, 52, 53, 54], of: p, to: type)
                case .upperLipBottom: resample([60, 61, 62, 63, 64], of: p, to: type)
                case .lowerLipTop: resample([64, 65, 66, 67, 60], of: p, to: type)
                case .lowerLipBottom: resample([54, 55, 56, 57, 58, 59, 48], of: p, to: type)
                case .noseBridge: [p[27], p[30]]
                case .noseBottom: [p[31], p[33], p[35]]
                case .leftCheek: [LandmarkConstruction.leftCheek(of: shape)]
                case .rightCheek: [LandmarkConstruction.rightCheek(of: shape)]
                }
            assert(points.count == type.pointCount, "\(type) built \(points.count) points")
            return FaceContour(type: type, points: points)
        }
    }

    /// An open curve through the given dlib points, resampled to the contour's point count.
    static func resample(_ indices: [Int], of points: [CGPoint], to type: FaceContour.ContourType) -> [CGPoint] {
        Polyline.resampled(indices.map { points[$0] }, count: type.pointCount, closed: false)
    }

    /// The 36-point face oval: the observed jaw line (0-16) closed by an estimated forehead arc.
    ///
    /// dlib stops at the jaw ends, at about eye level, so the forehead is estimated: half an
    /// ellipse above the line through points 0 and 16, centred between them, with those points
    /// as its ends. Its top is at the estimated hairline, as far above the eyebrows as the
    /// eyebrows are above the nose base (the classic "facial thirds"). Working along the jaw-end
    /// line and its perpendicular keeps the arc right under roll. The loop is resampled evenly,
    /// starting at the top centre and going clockwise in the image.
    static func faceOval(of shape: FaceShape) -> [CGPoint] {
        let p = shape.points
        let count = FaceContour.ContourType.face.pointCount
        let start = p[0]
        let end = p[16]
        guard let across = (end - start).normalized else {
            return Polyline.resampled(shape.jaw, count: count, closed: true)
        }
        let up = across.perpendicularClockwise * -1
        let centre = start.interpolated(to: end, fraction: 0.5)
        let halfWidth = start.distance(to: end) / 2
        let browCentre = CGPoint.mean(of: shape.rightEyebrow + shape.leftEyebrow)
        let browAboveNose = max((browCentre - p[33]).dot(up), 0)
        let hairlineHeight = (browCentre - centre).dot(up) + browAboveNose
        // A floor keeps the arc an arc when the points are odd (e.g. brows below the jaw ends).
        let halfHeight = max(hairlineHeight, halfWidth / 4)

        func forehead(_ angle: Double) -> CGPoint {
            centre + across * (halfWidth * cos(angle)) + up * (halfHeight * sin(angle))
        }
        let quarter = Double.pi / 2
        let steps = foreheadSamplesPerQuarter
        // Top centre toward point 16, down the jaw to point 0, and back up to the top.
        let towardEnd = (0..<steps).map { forehead(quarter - quarter * Double($0) / Double(steps)) }
        let towardTop = (1..<steps).map { forehead(2 * quarter - quarter * Double($0) / Double(steps)) }
        let loop = towardEnd + shape.jaw.reversed() + towardTop
        return Polyline.resampled(loop, count: count, closed: true)
    }

    /// The lower edge of an eyebrow, estimated: dlib only marks the top edge.
    ///
    /// Each top point is moved toward the eye along the face's "down" direction by a typical
    /// eyebrow thickness (``eyebrowThicknessRatio``), but never more than half the gap between
    /// the brow and the eye centre, so the estimate cannot reach into the eye.
    static func eyebrowBottom(top: [CGPoint], eyeCentre: CGPoint, of shape: FaceShape) -> [CGPoint] {
        let down = shape.downAxis ?? CGPoint(x: 0, y: 1)
        let gap = (eyeCentre - CGPoint.mean(of: top)).dot(down)
        let thickness = max(0, min(eyebrowThicknessRatio * shape.interOcularDistance, gap / 2))
        return top.map { $0 + down * thickness }
    }

    /// A closed 16-point loop around an eye through dlib's 6 eye points, in dlib's order.
    ///
    /// Each lid is resampled on its own (corner, two lid points, corner; 8 equal steps), so the
    /// loop keeps the eye corners exactly and sharp rather than rounding them off. Points between
    /// dlib's are interpolated, not observed.
    static func eyeLoop(_ eye: [CGPoint]) -> [CGPoint] {
        precondition(eye.count == 6, "ContourConstruction.eyeLoop needs 6 points, got \(eye.count)")
        let perLid = FaceContour.ContourType.leftEye.pointCount / 2 + 1
        let upper = Polyline.resampled([eye[0], eye[1], eye[2], eye[3]], count: perLid, closed: false)
        let lower = Polyline.resampled([eye[3], eye[4], eye[5], eye[0]], count: perLid, closed: false)
        return upper + lower.dropFirst().dropLast()
    }
}
