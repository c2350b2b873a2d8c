internal import CFaceKit
import Foundation

/// Head pose by `fk_solve_pose` (OpenCV's solvePnP against a rigid 3D face).
enum NativePose {
    /// The row-major rotation taking face-frame vectors into the camera frame, or `nil` when
    /// solvePnP finds no pose. The camera's centre is the image's, its focal length
    /// `focalLength` pixels.
    static func rotation(
        model: [(x: Float, y: Float, z: Float)], imagePoints: [CGPoint], imageWidth: Int, imageHeight: Int,
        focalLength: Double
    ) -> [Double]? {
        precondition(model.count == imagePoints.count, "NativePose.rotation: one image point per model point")
        let xyz = model.flatMap { [$0.x, $0.y, $0.z] }
        let points = imagePoints.map { fk_point(x: Float($0.x), y: Float($0.y)) }
        var pose = fk_pose()
        let status = fk_solve_pose(
            xyz, points, Int32(points.count), Int32(imageWidth), Int32(imageHeight), focalLength, &pose, nil)
        guard status == NativeStatus.ok.rawValue else { return nil }
        return withUnsafeBytes(of: pose.rotation) { Array($0.bindMemory(to: Double.self)) }
    }
}
