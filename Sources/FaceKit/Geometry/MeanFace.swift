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
enum MeanFace {
    /// One model point: which dlib point it stands for and where it is in the face frame.
    struct Point: Sendable, Equatable {
        var dlibIndex: Int
        var x: Float
        var y: Float
        var z: Float
    }

    /// The fitted model, (x, y, z) for dlib points 0...67 in order.
    static let fitted: [(x: Float, y: Float, z: Float)] = [
        (-7.6303, -5.5307, 2.5897),  // 0
        (-7.5498, -3.5004, 2.2628),  // 1
        (-7.3434, -1.5053, 2.0831),  // 2
        (-6.9764, 0.4768, 1.8646),  // 3
        (-6.2362, 2.3529, 1.2034),  // 4
        (-5.0579, 4.0071, 0.1711),  // 5
        (-3.5665, 5.4020, -1.0914),  // 6
        (-1.8974, 6.5282, -2.3257),  // 7
        (0.0000, 6.8695, -2.7184),  // 8
        (1.8974, 6.5282, -2.3257),  // 9
        (3.5665, 5.4020, -1.0914),  // 10
        (5.0579, 4.0071, 0.1711),  // 11
        (6.2362, 2.3529, 1.2034),  // 12
        (6.9764, 0.4768, 1.8646),  // 13
        (7.3434, -1.5053, 2.0831),  // 14
        (7.5498, -3.5004, 2.2628),  // 15
        (7.6303, -5.5307, 2.5897),  // 16
        (-6.1974, -6.7835, -1.9818),  // 17
        (-5.2716, -7.5596, -3.1171),  // 18
        (-3.9669, -7.7803, -4.0435),  // 19
        (-2.6102, -7.5721, -4.7347),  // 20
        (-1.3424, -7.0340, -5.2214),  // 21
        (1.3424, -7.0340, -5.2214),  // 22
        (2.6102, -7.5721, -4.7347),  // 23
        (3.9669, -7.7803, -4.0435),  // 24
        (5.2716, -7.5596, -3.1171),  // 25
        (6.1974, -6.7835, -1.9818),  // 26
        (0.0000, -5.5128, -5.2940),  // 27
        (0.0000, -4.1887, -6.0366),  // 28
        (0.0000, -2.8768, -6.8406),  // 29
        (0.0000, -1.5196, -7.6068),  // 30
        (-1.5277, -0.7920, -5.4053),  // 31
        (-0.7934, -0.5003, -5.8109),  // 32
        (0.0000, -0.2490, -6.0694),  // 33
        (0.7934, -0.5003, -5.8109),  // 34
        (1.5277, -0.7920, -5.4053),  // 35
        (-4.6471, -5.4203, -2.7399),  // 36
        (-3.8239, -5.8705, -3.1362),  // 37
        (-2.8482, -5.8477, -3.2942),  // 38
        (-1.9806, -5.2346, -3.3466),  // 39
        (-2.9056, -5.0784, -3.2949),  // 40
        (-3.8693, -5.0892, -3.1433),  // 41
        (1.9806, -5.2346, -3.3466),  // 42
        (2.8482, -5.8477, -3.2942),  // 43
        (3.8239, -5.8705, -3.1362),  // 44
        (4.6471, -5.4203, -2.7399),  // 45
        (3.8693, -5.0892, -3.1433),  // 46
        (2.9056, -5.0784, -3.2949),  // 47
        (-3.1315, 1.3795, -2.7587),  // 48
        (-1.9936, 1.0214, -4.2992),  // 49
        (-0.8385, 0.8912, -5.1673),  // 50
        (0.0000, 1.0779, -5.3342),  // 51
        (0.8385, 0.8912, -5.1673),  // 52
        (1.9936, 1.0214, -4.2992),  // 53
        (3.1315, 1.3795, -2.7587),  // 54
        (2.0461, 2.6162, -3.8573),  // 55
        (0.9030, 3.1473, -4.6343),  // 56
        (0.0000, 3.2511, -4.7814),  // 57
        (-0.9030, 3.1473, -4.6343),  // 58
        (-2.0461, 2.6162, -3.8573),  // 59
        (-2.6699, 1.4629, -2.9608),  // 60
        (-0.8457, 1.4721, -4.9393),  // 61
        (0.0000, 1.5756, -5.1163),  // 62
        (0.8457, 1.4721, -4.9393),  // 63
        (2.6699, 1.4629, -2.9608),  // 64
        (0.8639, 2.2154, -4.6794),  // 65
        (0.0000, 2.3245, -4.8499),  // 66
        (-0.8639, 2.2154, -4.6794),  // 67
    ]

    /// The model for solvePnP, one point per dlib index.
    static let points: [Point] = fitted.enumerated().map {
        Point(dlibIndex: $0.offset, x: $0.element.x, y: $0.element.y, z: $0.element.z)
    }

    /// The focal length solvePnP assumes, in image widths: a long lens, so nearly the weak
    /// perspective of a face far from the camera. It measured best on GENKI-4K (whose photos are
    /// tight crops of larger pictures; docs/accuracy.md), and it makes the angles the face's turn
    /// from the line between it and the camera wherever it is in the frame (a face looking into
    /// the camera near the image's edge reads about 0, not the angle of its off-centre view).
    static let focalLengthInImageWidths = 16.0

    /// How far the model's own "level" (its y axis straight down) is tilted from a face looking
    /// straight at the camera, in degrees of pitch: fitted to GENKI-4K's pose labels as FaceKit's
    /// mean signed pitch error with the model unlevelled (`facekit-train head-pose`).
    static let levelPitchDegrees = -0.73

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
