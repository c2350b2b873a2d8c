import Foundation

/// A 3D average face at all 68 of dlib's points: the model solvePnP fits to find the head pose,
/// with the camera it is fitted through and its level.
///
/// The points were fitted by `facekit-train head-pose` to the 68-point shapes dlib finds in
/// GENKI-4K's development photos (a rigid factorisation, Tomasi-Kanade with metric constraints;
/// see `MeanFaceFit` there and docs/accuracy.md), turned and scaled onto the 14-point
/// anthropometric model FaceKit used before (units of about a centimetre), made left-right
/// symmetric, and their depths (z) scaled by 0.7, the factor that measured best: with GENKI's
/// mostly small angles the factorisation's depth is weakly determined (a point's sideways shift
/// is its depth times the sine of the turn, so depth and angle trade off). They are in the face
/// frame ``HeadEulerAngles`` uses: x toward the subject's left (the image's right for a frontal
/// face), y down, z into the head.
///
/// ```swift
/// MeanFace.points[30]  // the nose tip, nearest the camera
/// ```
///
/// `package`: facekit-train's head-pose study fits and measures other models against it.
package enum MeanFace {
    /// One model point: which dlib point it stands for and where it is in the face frame.
    package struct Point: Sendable, Equatable {
        package var dlibIndex: Int
        package var x: Float
        package var y: Float
        package var z: Float

        package init(dlibIndex: Int, x: Float, y: Float, z: Float) {
            self.dlibIndex = dlibIndex
            self.x = x
            self.y = y
            self.z = z
        }
    }

    /// The fitted model, (x, y, z) for dlib points 0...67 in order.
    static let fitted: [(x: Float, y: Float, z: Float)] = [
        (-7.6303, -5.5274, 2.5905),  // 0
        (-7.5499, -3.4972, 2.2638),  // 1
        (-7.3436, -1.5023, 2.0838),  // 2
        (-6.9768, 0.4798, 1.8645),  // 3
        (-6.2363, 2.3555, 1.2041),  // 4
        (-5.0580, 4.0093, 0.1708),  // 5
        (-3.5665, 5.4036, -1.0919),  // 6
        (-1.8975, 6.5292, -2.3262),  // 7
        (0.0000, 6.8704, -2.7185),  // 8
        (1.8975, 6.5292, -2.3262),  // 9
        (3.5665, 5.4036, -1.0919),  // 10
        (5.0580, 4.0093, 0.1708),  // 11
        (6.2363, 2.3555, 1.2041),  // 12
        (6.9768, 0.4798, 1.8645),  // 13
        (7.3436, -1.5023, 2.0838),  // 14
        (7.5499, -3.4972, 2.2638),  // 15
        (7.6303, -5.5274, 2.5905),  // 16
        (-6.1975, -6.7825, -1.9817),  // 17
        (-5.2717, -7.5592, -3.1167),  // 18
        (-3.9669, -7.7808, -4.0428),  // 19
        (-2.6101, -7.5728, -4.7345),  // 20
        (-1.3424, -7.0349, -5.2212),  // 21
        (1.3424, -7.0349, -5.2212),  // 22
        (2.6101, -7.5728, -4.7345),  // 23
        (3.9669, -7.7808, -4.0428),  // 24
        (5.2717, -7.5592, -3.1167),  // 25
        (6.1975, -6.7825, -1.9817),  // 26
        (0.0000, -5.5137, -5.2945),  // 27
        (0.0000, -4.1902, -6.0374),  // 28
        (0.0000, -2.8788, -6.8397),  // 29
        (0.0000, -1.5221, -7.6067),  // 30
        (-1.5277, -0.7933, -5.4046),  // 31
        (-0.7933, -0.5018, -5.8101),  // 32
        (0.0000, -0.2506, -6.0694),  // 33
        (0.7933, -0.5018, -5.8101),  // 34
        (1.5277, -0.7933, -5.4046),  // 35
        (-4.6472, -5.4198, -2.7406),  // 36
        (-3.8240, -5.8703, -3.1373),  // 37
        (-2.8483, -5.8474, -3.2962),  // 38
        (-1.9807, -5.2345, -3.3472),  // 39
        (-2.9057, -5.0784, -3.2956),  // 40
        (-3.8693, -5.0889, -3.1446),  // 41
        (1.9807, -5.2345, -3.3472),  // 42
        (2.8483, -5.8474, -3.2962),  // 43
        (3.8240, -5.8703, -3.1373),  // 44
        (4.6472, -5.4198, -2.7406),  // 45
        (3.8693, -5.0889, -3.1446),  // 46
        (2.9057, -5.0784, -3.2956),  // 47
        (-3.1316, 1.3798, -2.7576),  // 48
        (-1.9936, 1.0207, -4.2979),  // 49
        (-0.8385, 0.8901, -5.1666),  // 50
        (0.0000, 1.0764, -5.3331),  // 51
        (0.8385, 0.8901, -5.1666),  // 52
        (1.9936, 1.0207, -4.2979),  // 53
        (3.1316, 1.3798, -2.7576),  // 54
        (2.0462, 2.6161, -3.8572),  // 55
        (0.9029, 3.1468, -4.6349),  // 56
        (0.0000, 3.2506, -4.7829),  // 57
        (-0.9029, 3.1468, -4.6349),  // 58
        (-2.0462, 2.6161, -3.8572),  // 59
        (-2.6698, 1.4631, -2.9596),  // 60
        (-0.8458, 1.4711, -4.9392),  // 61
        (0.0000, 1.5744, -5.1159),  // 62
        (0.8458, 1.4711, -4.9392),  // 63
        (2.6698, 1.4631, -2.9596),  // 64
        (0.8638, 2.2149, -4.6794),  // 65
        (0.0000, 2.3240, -4.8506),  // 66
        (-0.8638, 2.2149, -4.6794),  // 67
    ]

    /// The model for solvePnP, one point per dlib index.
    package static let points: [Point] = fitted.enumerated().map {
        Point(dlibIndex: $0.offset, x: $0.element.x, y: $0.element.y, z: $0.element.z)
    }

    /// The focal length solvePnP assumes, in image widths: a long lens, so nearly the weak
    /// perspective of a face far from the camera. It measured best on GENKI-4K (whose photos are
    /// tight crops of larger pictures; docs/accuracy.md), and it makes the angles the face's turn
    /// from the line between it and the camera wherever it is in the frame (a face looking into
    /// the camera near the image's edge reads about 0, not the angle of its off-centre view).
    package static let focalLengthInImageWidths = 16.0

    /// How far the model's own "level" (its y axis straight down) is tilted from a face looking
    /// straight at the camera, in degrees of pitch: fitted to GENKI-4K's pose labels as FaceKit's
    /// mean signed pitch error with the model unlevelled (`facekit-train head-pose`).
    package static let levelPitchDegrees = -0.70

    /// A solvePnP rotation of ``points`` (face frame to camera, row-major) turned so that a face
    /// looking straight at the camera reads pitch 0: `rotation` times the rotation about the
    /// face's x axis by -`degrees`.
    static func levelled(_ rotation: [Double], by degrees: Double = levelPitchDegrees) -> [Double] {
        let angle = -degrees * .pi / 180
        let (c, s) = (cos(angle), sin(angle))
        var result = rotation
        for row in 0..<3 {
            let (y, z) = (rotation[3 * row + 1], rotation[3 * row + 2])
            result[3 * row + 1] = y * c + z * s
            result[3 * row + 2] = -y * s + z * c
        }
        return result
    }

    /// The dlib points to pass to solvePnP alongside ``points``, in the same order.
    static let dlibIndices: [Int] = points.map(\.dlibIndex)
}
