import Foundation
import Testing

@testable import FaceKit

extension GeometryTests {
    /// Row-major 3x3 rotations about the camera's axes (x right, y down, z forward), right-handed.
    enum Rotation {
        static func about(_ axis: Int, degrees: Double) -> [Double] {
            let a = degrees * Double.pi / 180
            let c = cos(a)
            let s = sin(a)
            switch axis {
            case 0: return [1, 0, 0, 0, c, -s, 0, s, c]
            case 1: return [c, 0, s, 0, 1, 0, -s, 0, c]
            default: return [c, -s, 0, s, c, 0, 0, 0, 1]
            }
        }

        static func product(_ a: [Double], _ b: [Double]) -> [Double] {
            (0..<9).map { index in
                let row = index / 3
                let column = index % 3
                return (0..<3).reduce(0) { $0 + a[row * 3 + $1] * b[$1 * 3 + column] }
            }
        }

        static func apply(_ r: [Double], _ v: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3((0..<3).map { row in r[row * 3] * v.x + r[row * 3 + 1] * v.y + r[row * 3 + 2] * v.z })
        }

        /// The rotation of a face with ML Kit's yaw, pitch and roll (intrinsic, in that order).
        /// Each camera-axis rotation goes by the negated angle: a right-handed turn about y (down)
        /// moves the face's front toward the image's left, about x turns it down, about z turns it
        /// clockwise on screen.
        static func face(yaw: Double, pitch: Double, roll: Double) -> [Double] {
            product(product(about(1, degrees: -yaw), about(0, degrees: -pitch)), about(2, degrees: -roll))
        }
    }

    @Suite("HeadEulerAngles")
    struct HeadEulerAnglesTests {
        static let towardCamera = SIMD3<Double>(0, 0, -1)
        static let subjectsLeft = SIMD3<Double>(1, 0, 0)

        @Test("identity is a frontal, upright face")
        func identity() {
            let angles = HeadEulerAngles.from(rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1])
            #expect(angles == HeadEulerAngles(x: 0, y: 0, z: 0))
        }

        @Test("a face turned toward the image's right has positive yaw", arguments: [5.0, 30, 60, 89])
        func yawSign(degrees: Double) {
            let rotation = Rotation.about(1, degrees: -degrees)
            #expect(Rotation.apply(rotation, Self.towardCamera).x > 0)  // the nose points image-right
            // ... and the subject's left ear goes away from the camera (the one hidden at large yaw).
            #expect(Rotation.apply(rotation, Self.subjectsLeft).z > 0)
            let angles = HeadEulerAngles.from(rotation: rotation)
            #expect(isClose(angles.y, degrees, within: 1e-9))
            #expect(isClose(angles.x, 0, within: 1e-9) && isClose(angles.z, 0, within: 1e-9))
        }

        @Test("a face turned up has positive pitch", arguments: [5.0, 20, 45, 80])
        func pitchSign(degrees: Double) {
            let rotation = Rotation.about(0, degrees: -degrees)
            #expect(Rotation.apply(rotation, Self.towardCamera).y < 0)  // the nose points up the image
            let angles = HeadEulerAngles.from(rotation: rotation)
            #expect(isClose(angles.x, degrees, within: 1e-9))
            #expect(isClose(angles.y, 0, within: 1e-9) && isClose(angles.z, 0, within: 1e-9))
        }

        @Test("a face rotated counter-clockwise in the image has positive roll", arguments: [5.0, 45, 90, 170])
        func rollSign(degrees: Double) {
            let rotation = Rotation.about(2, degrees: -degrees)
            #expect(Rotation.apply(rotation, Self.subjectsLeft).y < 0)  // the left eye rises on screen
            let angles = HeadEulerAngles.from(rotation: rotation)
            #expect(isClose(angles.z, degrees, within: 1e-9))
            #expect(isClose(angles.x, 0, within: 1e-9) && isClose(angles.y, 0, within: 1e-9))
        }

        @Test("negative turns give negative angles", arguments: [0, 1, 2])
        func negativeSigns(axis: Int) {
            let angles = HeadEulerAngles.from(rotation: Rotation.about(axis, degrees: 20))
            let value = [angles.x, angles.y, angles.z][axis]
            #expect(isClose(value, -20, within: 1e-9))
        }

        @Test(
            "combined yaw, pitch and roll come back unchanged",
            arguments: [
                (30.0, 10.0, 15.0), (-45, 20, -30), (60, -25, 40), (-10, -40, 170), (80, 5, -5),
            ])
        func combined(yaw: Double, pitch: Double, roll: Double) {
            let angles = HeadEulerAngles.from(rotation: Rotation.face(yaw: yaw, pitch: pitch, roll: roll))
            #expect(isClose(angles.y, yaw, within: 1e-9))
            #expect(isClose(angles.x, pitch, within: 1e-9))
            #expect(isClose(angles.z, roll, within: 1e-9))
        }

        @Test("looking straight up gives finite angles")
        func gimbalLock() {
            let angles = HeadEulerAngles.from(rotation: Rotation.about(0, degrees: -90))
            #expect(isClose(angles.x, 90, within: 1e-9))
            #expect(angles.y.isFinite && angles.z.isFinite)
        }
    }
}
