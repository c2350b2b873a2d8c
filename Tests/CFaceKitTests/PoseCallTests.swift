import CFaceKit
import Foundation
import Testing

/// fk_solve_pose called directly: points projected from a known pose through a known camera are
/// solved back to that pose.
@Suite("CFaceKit: head pose")
struct PoseCallTests {
    /// A small rigid face (x right, y down, z into the head; nose nearest the camera).
    static let model: [SIMD3<Double>] = [
        [-5, -5, 0], [5, -5, 0], [-2, -5, -1], [2, -5, -1], [0, 0, -4], [-2, 1, -2], [2, 1, -2], [-3, 4, -1],
        [3, 4, -1], [0, 7, 0], [-7, 0, 4], [7, 0, 4],
    ]

    /// The rotation about z, then y, then x by the given radians, row-major.
    static func rotation(x: Double, y: Double, z: Double) -> [Double] {
        let (cx, sx, cy, sy, cz, sz) = (cos(x), sin(x), cos(y), sin(y), cos(z), sin(z))
        let rx: [Double] = [1, 0, 0, 0, cx, -sx, 0, sx, cx]
        let ry: [Double] = [cy, 0, sy, 0, 1, 0, -sy, 0, cy]
        let rz: [Double] = [cz, -sz, 0, sz, cz, 0, 0, 0, 1]
        func times(_ a: [Double], _ b: [Double]) -> [Double] {
            var product = [Double](repeating: 0, count: 9)
            for row in 0..<3 {
                for column in 0..<3 {
                    for k in 0..<3 { product[3 * row + column] += a[3 * row + k] * b[3 * k + column] }
                }
            }
            return product
        }
        return times(rx, times(ry, rz))
    }

    @Test(
        "recovers the rotation the points were projected with, at the focal length given",
        arguments: [(0.3, -0.2, 0.1, 640.0), (-0.1, 0.5, -0.3, 640.0), (0.05, 0.0, 3.0, 640.0), (0.2, 0.4, 0.2, 10240.0)])
    func recovers(yaw: Double, pitch: Double, roll: Double, focalLength: Double) {
        let r = Self.rotation(x: pitch, y: yaw, z: roll)
        let (width, height) = (640.0, 480.0)
        let translation = SIMD3(30.0, -10, 60 * focalLength / 640)
        let points = Self.model.map { m -> fk_point in
            let rows: [SIMD3<Double>] = [SIMD3(r[0], r[1], r[2]), SIMD3(r[3], r[4], r[5]), SIMD3(r[6], r[7], r[8])]
            let camera: SIMD3<Double> = SIMD3((rows[0] * m).sum(), (rows[1] * m).sum(), (rows[2] * m).sum()) + translation
            let x: Double = focalLength * camera.x / camera.z + width / 2
            let y: Double = focalLength * camera.y / camera.z + height / 2
            return fk_point(x: Float(x), y: Float(y))
        }
        let xyz = Self.model.flatMap { [Float($0.x), Float($0.y), Float($0.z)] }
        var pose = fk_pose()
        let call = NativeCall {
            fk_solve_pose(xyz, points, Int32(points.count), Int32(width), Int32(height), focalLength, &pose, $0)
        }
        #expect(call.status == FK_OK.code && call.recordUntouched)
        let solved = withUnsafeBytes(of: pose.rotation) { Array($0.bindMemory(to: Double.self)) }
        let largest = zip(solved, r).map { abs($0 - $1) }.max()!
        #expect(largest < 1e-3, "rotation \(solved) against \(r)")
    }

    @Test("refuses a focal length that is not positive and leaves out untouched")
    func refusesFocalLength() {
        let xyz = Self.model.prefix(6).flatMap { [Float($0.x), Float($0.y), Float($0.z)] }
        let points = (0..<6).map { fk_point(x: Float($0 * 10), y: Float($0 * 7 % 5)) }
        var pose = fk_pose()
        pose.rotation.0 = 42
        let call = NativeCall { fk_solve_pose(xyz, points, 6, 64, 48, 0, &pose, $0) }
        #expect(call.status == FK_INVALID_ARGUMENT.code)
        #expect(call.message == "focal length must be positive")
        #expect(pose.rotation.0 == 42)
    }
}
