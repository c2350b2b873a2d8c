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
        let points = Self.projected(rotation: r, focalLength: focalLength, faceWidth: faceWidth)
        guard let solved = Self.solve(points, focalLength: focalLength) else { return }
        let largest = zip(solved, r).map { abs($0 - $1) }.max()!
        #expect(largest < 1e-3, "rotation \(solved) against \(r)")
    }

    /// Pitch from -0.9 to 0.9 rad and yaw from -1.3 to 1.3 (75 degrees), rolled up to 172
    /// degrees either way, through a short and a long lens, each point moved by up to 2 px as a
    /// landmark model's would be: no solve may land in another minimum (a mirrored head is tens of
    /// degrees off; the noise alone moves the answer by a few).
    @Test("finds every pose up to 75 degrees of yaw, with 2 px of noise, within 5 degrees")
    func recoversWidePosesWithNoise() {
        var state: UInt32 = 1
        func noise() -> Double {
            state = state &* 1_103_515_245 &+ 12345
            return Double((state >> 8) % 1000) / 1000 * 4 - 2
        }
        var worst = 0.0
        for focalLength in [640.0, 10240.0] {
            for pitch in stride(from: -0.9, through: 0.9, by: 0.3) {
                for yaw in stride(from: -1.3, through: 1.3, by: 0.26) {
                    for roll in stride(from: -3.0, through: 3.0, by: 1.5) {
                        let r = Self.rotation(x: pitch, y: yaw, z: roll)
                        let points = Self.projected(rotation: r, focalLength: focalLength, faceWidth: 150).map {
                            fk_point(x: $0.x + Float(noise()), y: $0.y + Float(noise()))
                        }
                        guard let solved = Self.solve(points, focalLength: focalLength) else { return }
                        worst = max(worst, Self.degreesBetween(solved, r))
                    }
                }
            }
        }
        #expect(worst < 5, "worst rotation error \(worst) degrees")
    }

    /// The model's points seen with rotation `r` through a 640 x 480 camera of the given focal
    /// length, the face about `faceWidth` pixels wide, its centre 100 px right of and 40 px above
    /// the image's.
    static func projected(rotation r: [Double], focalLength: Double, faceWidth: Double) -> [fk_point] {
        // The model is 14 units wide: at distance d it spans 14 f / d pixels.
        let distance = 14 * focalLength / faceWidth
        let translation = SIMD3(100 * distance / focalLength, -40 * distance / focalLength, distance)
        let rows: [SIMD3<Double>] = [SIMD3(r[0], r[1], r[2]), SIMD3(r[3], r[4], r[5]), SIMD3(r[6], r[7], r[8])]
        return model.map { m -> fk_point in
            let camera: SIMD3<Double> = SIMD3((rows[0] * m).sum(), (rows[1] * m).sum(), (rows[2] * m).sum()) + translation
            return fk_point(x: Float(focalLength * camera.x / camera.z + 320), y: Float(focalLength * camera.y / camera.z + 240))
        }
    }

    /// fk_solve_pose's rotation for `points` in a 640 x 480 image, or `nil` (and a recorded
    /// failure) when the call fails.
    static func solve(_ points: [fk_point], focalLength: Double) -> [Double]? {
        let xyz = model.flatMap { [Float($0.x), Float($0.y), Float($0.z)] }
        var solvedPose = fk_pose()
        let call = NativeCall {
            fk_solve_pose(xyz, points, Int32(points.count), 640, 480, focalLength, &solvedPose, $0)
        }
        #expect(call.status == FK_OK.code && call.recordUntouched, "\(call.message)")
        guard call.status == FK_OK.code else { return nil }
        return withUnsafeBytes(of: solvedPose.rotation) { Array($0.bindMemory(to: Double.self)) }
    }

    /// The angle of the rotation between two row-major rotations, in degrees.
    static func degreesBetween(_ a: [Double], _ b: [Double]) -> Double {
        let trace = (0..<9).reduce(0.0) { $0 + a[$1] * b[$1] }  // trace of a^T b
        return acos(max(-1, min(1, (trace - 1) / 2))) * 180 / .pi
    }

    @Test("refuses a focal length that is not positive and leaves out untouched")
    func refusesFocalLength() {
        let xyz = Self.model.prefix(6).flatMap { [Float($0.x), Float($0.y), Float($0.z)] }
        let points = (0..<6).map { (i: Int) in fk_point(x: Float(i * 10), y: Float(i * 7 % 5)) }
        var pose = fk_pose()
        pose.rotation.0 = 42
        let call = NativeCall { fk_solve_pose(xyz, points, 6, 64, 48, 0, &pose, $0) }
        #expect(call.status == FK_INVALID_ARGUMENT.code)
        #expect(call.message == "focal length must be positive")
        #expect(pose.rotation.0 == 42)
    }
}
