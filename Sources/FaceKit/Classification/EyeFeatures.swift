import Foundation

// `package` (the tools see it, users of the library do not): facekit-train extracts its features
// with the runtime's own code, so that the model is trained on exactly what it is later given.

/// Eye-openness measurements from the 6 points dlib places around each eye.
///
/// The eye aspect ratio (Soukupová and Čech, 2016) is the lids' mean distance over the corners'
/// distance: about 0.3 for an open eye, near 0.1 for a closed one, whatever the eye's size. A
/// still photo cannot judge by it (one person's open ratio is another's closed one: the
/// eye-state network looks at the eye instead), but in video each eye's own level is the
/// yardstick (``EyeOpenLevel``).
package enum EyeFeatures {
    package enum Eye: Sendable { case left, right }

    /// (|p1 - p5| + |p2 - p4|) / (2 |p0 - p3|) for the eye's points p0...p5 in dlib's order
    /// (corner, two upper-lid points, corner, two lower-lid points).
    package static func aspectRatio(_ eye: [CGPoint]) -> Double {
        precondition(eye.count == 6, "EyeFeatures.aspectRatio needs an eye's 6 points")
        let width = eye[0].distance(to: eye[3])
        guard width > 0 else { return 0 }
        return (eye[1].distance(to: eye[5]) + eye[2].distance(to: eye[4])) / (2 * width)
    }
}
