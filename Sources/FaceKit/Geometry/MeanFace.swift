import Foundation

/// A 3D average face at 14 of dlib's points: the model solvePnP fits to find the head pose.
///
/// The values are the 14-point model of lincolnhard/head-pose-estimation (after the anthropometric
/// model in glAnthropometric3DModel.cpp, ISR University of Coimbra), in arbitrary units (about a
/// centimetre each). They are written below as published, in that project's frame (x toward the
/// subject's right, i.e. the image's left; y up; z toward the camera), and converted once to the
/// face frame ``HeadEulerAngles`` uses (x toward the subject's left, y down, z into the head) by
/// negating all three. The published frame is left-handed and ours right-handed, so this is a
/// change of axes by meaning, not a mirror image: point 17 (the subject's right brow) stays on
/// the image's left.
///
/// ```swift
/// MeanFace.points.first { $0.dlibIndex == 8 }  // chin: x 0, y 7.415691, z -4.070434
/// ```
enum MeanFace {
    /// One model point: which dlib point it stands for and where it is in the face frame.
    struct Point: Sendable, Equatable {
        var dlibIndex: Int
        var x: Float
        var y: Float
        var z: Float
    }

    /// The model as published, in lincolnhard's frame: (dlib index, x, y, z).
    static let published: [(dlibIndex: Int, x: Float, y: Float, z: Float)] = [
        (17, 6.825897, 6.760612, 4.402142),  // right eyebrow, outer end
        (21, 1.330353, 7.122144, 6.903745),  // right eyebrow, inner end
        (22, -1.330353, 7.122144, 6.903745),  // left eyebrow, inner end
        (26, -6.825897, 6.760612, 4.402142),  // left eyebrow, outer end
        (36, 5.311432, 5.485328, 3.987654),  // right eye, outer corner
        (39, 1.789930, 5.393625, 4.413414),  // right eye, inner corner
        (42, -1.789930, 5.393625, 4.413414),  // left eye, inner corner
        (45, -5.311432, 5.485328, 3.987654),  // left eye, outer corner
        (31, 2.005628, 1.409845, 6.165652),  // right nostril
        (35, -2.005628, 1.409845, 6.165652),  // left nostril
        (48, 2.774015, -2.080775, 5.048531),  // right mouth corner
        (54, -2.774015, -2.080775, 5.048531),  // left mouth corner
        (57, 0.000000, -3.116408, 6.097667),  // lower lip, bottom centre
        (8, 0.000000, -7.415691, 4.070434),  // chin
    ]

    /// The model in the face frame, for solvePnP: x = -x, y = -y, z = -z of the published values.
    static let points: [Point] = published.map { Point(dlibIndex: $0.dlibIndex, x: -$0.x, y: -$0.y, z: -$0.z) }

    /// How far the model's own "level" (its y axis straight down) is tilted from a face looking
    /// straight at the camera, in degrees of pitch: fitted to GENKI-4K's pose labels, on whose
    /// development files FaceKit's pitch read 3.6 degrees low on average, whichever half of them
    /// the offset was taken from (`facekit-train head-pose`, docs/accuracy.md).
    static let levelPitchDegrees = 3.6

    /// A solvePnP rotation of ``points`` (face frame to camera, row-major) turned so that a face
    /// looking straight at the camera reads pitch 0: `rotation` times the rotation about the
    /// face's x axis by -``levelPitchDegrees``.
    static func levelled(_ rotation: [Double]) -> [Double] {
        let angle = -levelPitchDegrees * .pi / 180
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
