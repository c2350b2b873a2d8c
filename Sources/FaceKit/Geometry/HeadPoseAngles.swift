import Foundation

/// Head rotation in degrees with ML Kit's signs: what `Face.headEulerAngleX/Y/Z` report.
///
/// - `x`, pitch: positive when the face is turned up.
/// - `y`, yaw: positive when the face is turned toward the image's right side (the subject
///   turning to their own left, which hides their left ear).
/// - `z`, roll: positive when the face is rotated counter-clockwise in the image.
///
/// The angles are intrinsic yaw, then pitch, then roll: yaw and pitch say where the face points,
/// roll says how far it is turned about that direction. Yaw and pitch are each in -180...180
/// and -90...90, roll in -180...180.
///
/// ```swift
/// HeadEulerAngles.from(rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1])  // x 0, y 0, z 0
/// ```
package struct HeadEulerAngles: Sendable, Equatable {
    package var x: Double
    package var y: Double
    package var z: Double

    /// The angles of a head pose from its rotation matrix, as solvePnP gives it (after Rodrigues).
    ///
    /// `rotation` is a row-major 3x3 matrix taking vectors in the face frame (x toward the
    /// image's right for a frontal face, i.e. toward the subject's left; y down; z into the
    /// head, away from the camera) to OpenCV's camera frame (x right, y down, z forward).
    ///
    /// The face looks along d = R·(0, 0, -1); yaw = atan2(d.x, -d.z) and
    /// pitch = atan2(-d.y, hypot(d.x, d.z)). Roll is the angle of the face's x axis R·(1, 0, 0)
    /// measured in the frame the face would have with that yaw and pitch and no roll, so that
    /// roll is not overstated when the head is also turned.
    static func from(rotation: [Double]) -> HeadEulerAngles {
        precondition(rotation.count == 9, "HeadEulerAngles.from(rotation:) needs 9 values, got \(rotation.count)")
        func column(_ index: Int) -> SIMD3<Double> {
            SIMD3(rotation[index], rotation[3 + index], rotation[6 + index])
        }
        let facing = -column(2)
        let yaw = atan2(facing.x, -facing.z)
        let pitch = atan2(-facing.y, hypot(facing.x, facing.z))

        // The unrolled face frame: z into the head; x horizontal (no camera-y part) and at right
        // angles to z; y = z × x. Looking straight up or down x is undefined; use the camera's x.
        let inward = -facing
        let horizontal = SIMD3(inward.z, 0, -inward.x)
        let horizontalLength = (horizontal * horizontal).sum().squareRoot()
        let unrolledX = horizontalLength > 1e-9 ? horizontal / horizontalLength : SIMD3(1, 0, 0)
        let unrolledY = cross(inward, unrolledX)
        let eyeAxis = column(0)
        let roll = atan2(-(eyeAxis * unrolledY).sum(), (eyeAxis * unrolledX).sum())

        let degrees = 180 / Double.pi
        return HeadEulerAngles(x: pitch * degrees, y: yaw * degrees, z: roll * degrees)
    }

    private static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
}
