import Foundation

/// Steadies one tracked face's box and 68 points from frame to frame: a ``OneEuroFilter`` per
/// coordinate, with speeds measured in face widths per second, so a face at rest stops trembling
/// while a moving face, or an eyelid closing, follows without visible lag. Head pose, landmarks
/// and contours are built from the smoothed points, so they are steadied with them.
///
/// ```swift
/// var smoother = FaceSmoother(parameters: FaceSmoother.defaultParameters)
/// let (box, shape) = smoother.smooth(box: detectedBox, shape: detectedShape, timestampMs: 40)
/// ```
struct FaceSmoother: Sendable {
    /// The parameters `track` and `annotate` use: a face at rest is filtered at 1.5 Hz, and the
    /// cutoff rises by 4 Hz per face width per second of motion. Set before measuring, not fitted;
    /// docs/accuracy.md ("Smoothing and jitter") gives the jitter and lag they produce.
    static let defaultParameters = OneEuroFilter.Parameters(minimumCutoff: 1.5, speedCoefficient: 4)

    private var box: [OneEuroFilter]
    private var points: [OneEuroFilter]

    init(parameters: OneEuroFilter.Parameters) {
        box = Array(repeating: OneEuroFilter(parameters: parameters), count: 4)
        points = Array(repeating: OneEuroFilter(parameters: parameters), count: 2 * FaceShape.pointCount)
    }

    /// The smoothed box (centre and size filtered) and points.
    mutating func smooth(box raw: CGRect, shape: FaceShape, timestampMs: Double) -> (box: CGRect, shape: FaceShape) {
        let scale = Double(raw.width)
        let values = [Double(raw.midX), Double(raw.midY), Double(raw.width), Double(raw.height)]
        let smoothed = values.indices.map { box[$0].filter(values[$0], timestampMs: timestampMs, scale: scale) }
        let smoothedBox = CGRect(
            x: smoothed[0] - smoothed[2] / 2, y: smoothed[1] - smoothed[3] / 2, width: smoothed[2], height: smoothed[3])
        var smoothedPoints = shape.points
        for index in smoothedPoints.indices {
            let point = smoothedPoints[index]
            smoothedPoints[index] = CGPoint(
                x: points[2 * index].filter(Double(point.x), timestampMs: timestampMs, scale: scale),
                y: points[2 * index + 1].filter(Double(point.y), timestampMs: timestampMs, scale: scale))
        }
        return (smoothedBox, FaceShape(points: smoothedPoints))
    }
}
