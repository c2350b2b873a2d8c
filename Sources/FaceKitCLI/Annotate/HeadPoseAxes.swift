import FaceKit
import Foundation

/// The head's own axes in the camera's frame, rebuilt from ML Kit's Euler angles, for drawing
/// the pose as three lines from the nose.
///
/// The angles are those of ``Face/headEulerAngleX`` (pitch, positive up), `Y` (yaw, positive
/// toward the image's right) and `Z` (roll, positive counter-clockwise in the image): intrinsic
/// yaw, then pitch, then roll, as FaceKit measures them. The camera frame has x right, y down
/// and z away from the viewer; an axis drawn on the image is its (x, y) part, so an axis
/// pointing at the camera shrinks to a dot.
///
/// ```swift
/// let axes = HeadPoseAxes(pitch: 0, yaw: 0, roll: 0)
/// axes.right     // (1, 0, 0): toward the subject's left, the image's right
/// axes.up        // (0, -1, 0)
/// axes.forward   // (0, 0, -1): out of the face, toward the camera
/// ```
struct HeadPoseAxes: Equatable {
    /// The face's x axis: from the subject's right ear toward their left.
    var right: SIMD3<Double>
    /// From the chin toward the top of the head.
    var up: SIMD3<Double>
    /// The direction the face looks.
    var forward: SIMD3<Double>

    init(face: Face) {
        self.init(pitch: face.headEulerAngleX, yaw: face.headEulerAngleY, roll: face.headEulerAngleZ)
    }

    /// Angles in degrees.
    init(pitch: Double, yaw: Double, roll: Double) {
        let radians = Double.pi / 180
        let (p, y, r) = (pitch * radians, yaw * radians, roll * radians)
        // Where the face looks: yaw = atan2(d.x, -d.z), pitch = atan2(-d.y, hypot(d.x, d.z)).
        let facing = SIMD3(sin(y) * cos(p), -sin(p), -cos(y) * cos(p))
        // The face frame without roll: x horizontal and at right angles to the inward axis.
        let inward = -facing
        let horizontal = SIMD3(inward.z, 0, -inward.x)
        let length = (horizontal * horizontal).sum().squareRoot()
        let unrolledX = length > 1e-9 ? horizontal / length : SIMD3(1, 0, 0)
        let unrolledY = Self.cross(inward, unrolledX)
        // Roll turns the face's x axis counter-clockwise in the image (toward -y).
        let x = cos(r) * unrolledX - sin(r) * unrolledY
        let down = Self.cross(inward, x)
        right = x
        up = -down
        forward = facing
    }

    /// The rotation taking face-frame vectors (x right, y down, z into the head) into the
    /// camera frame, row-major: the matrix ``HeadEulerAngles`` reads the angles from.
    var rotation: [Double] {
        let down = -up
        let inward = -forward
        return [right.x, down.x, inward.x, right.y, down.y, inward.y, right.z, down.z, inward.z]
    }

    private static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
}
