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

    /// Pitch, yaw and roll in radians, the focal length in pixels, and the face's width in pixels
    /// (about): the last case is a small face through a long lens, where SQPnP refuses to run.
    static let poses: [(Double, Double, Double, Double, Double)] = [
        (0.3, -0.2, 0.1, 640, 150), (-0.1, 0.5, -0.3, 640, 150), (0.05, 0.0, 3.0, 640, 150),
        (0.2, 0.4, 0.2, 10240, 150), (0.15, -0.35, 0.05, 10240, 40),
    ]

    @Test("recovers the rotation the points were projected with, at the focal length given", arguments: poses)
    func recovers(pose: (Double, Double, Double, Double, Double)) {
        let (pitch, yaw, roll, focalLength, faceWidth) = pose
        let r = Self.rotation(x: pitch, y: yaw, z: roll)
        let (width, height) = (640.0, 480.0)
        // The model is 14 units wide: at distance d it spans 14 f / d pixels. Its centre is put
        // 100 px right of and 40 px above the image's.
        let distance = 14 * focalLength / faceWidth
        let translation = SIMD3(100 * distance / focalLength, -40 * distance / focalLength, distance)
        let points = Self.model.map { m -> fk_point in
            let rows: [SIMD3<Double>] = [SIMD3(r[0], r[1], r[2]), SIMD3(r[3], r[4], r[5]), SIMD3(r[6], r[7], r[8])]
            let camera: SIMD3<Double> = SIMD3((rows[0] * m).sum(), (rows[1] * m).sum(), (rows[2] * m).sum()) + translation
            let x: Double = focalLength * camera.x / camera.z + width / 2
            let y: Double = focalLength * camera.y / camera.z + height / 2
            return fk_point(x: Float(x), y: Float(y))
        }
        let xyz = Self.model.flatMap { [Float($0.x), Float($0.y), Float($0.z)] }
        var solvedPose = fk_pose()
        let call = NativeCall {
            fk_solve_pose(xyz, points, Int32(points.count), Int32(width), Int32(height), focalLength, &solvedPose, $0)
        }
        #expect(call.status == FK_OK.code && call.recordUntouched, "\(call.message)")
        let solved = withUnsafeBytes(of: solvedPose.rotation) { Array($0.bindMemory(to: Double.self)) }
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
