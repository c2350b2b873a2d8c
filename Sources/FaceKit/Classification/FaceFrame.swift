import Foundation

/// Coordinates in a face's own frame: origin midway between the eye centres, x along the eye axis
/// (toward the subject's left), y down the face, unit = the outer-eye-corner distance. Features
/// measured here do not change with the face's size, position or roll.
struct FaceFrame {
    let origin: CGPoint
    let xAxis: CGPoint
    let yAxis: CGPoint
    let unit: Double

    init?(_ shape: FaceShape) {
        guard let x = shape.eyeAxis, let y = shape.downAxis, shape.interOcularDistance > 0 else { return nil }
        origin = shape.rightEyeCentre.interpolated(to: shape.leftEyeCentre, fraction: 0.5)
        xAxis = x
        yAxis = y
        unit = shape.interOcularDistance
    }

    /// `point` in face units.
    func local(_ point: CGPoint) -> CGPoint {
        let d = point - origin
        return CGPoint(x: d.dot(xAxis) / unit, y: d.dot(yAxis) / unit)
    }
}
