import Foundation

// `package` (the tools see it, users of the library do not): facekit-train extracts its features
// with the runtime's own code, so that the model is trained on exactly what it is later given.

/// Mouth-shape measurements that separate smiles from neutral faces, from dlib's 68 points.
///
/// All are in ``FaceFrame`` units, so they hold at any face size and roll. A smile widens the
/// mouth, lifts its corners relative to the lip centre, often opens the lips (teeth), and
/// narrows the eyes a little. The same function serves training (`facekit-evaluate
/// train-classifiers`) and analysis.
package enum SmileFeatures {
    package static let names = [
        "mouth_width", "corner_lift", "inner_gap", "outer_height", "corner_to_nose", "mouth_to_jaw", "eye_aperture",
    ]

    /// The features of `shape`, in ``names`` order; `nil` for a degenerate shape.
    package static func features(of shape: FaceShape) -> [Double]? {
        guard let frame = FaceFrame(shape) else { return nil }
        let p = shape.points.map(frame.local)
        let cornerY = (p[48].y + p[54].y) / 2
        let lipCentreY = (p[51].y + p[57].y) / 2
        let jawWidth = p[2].distance(to: p[14])
        guard jawWidth > 0 else { return nil }
        return [
            p[48].distance(to: p[54]),
            lipCentreY - cornerY,
            p[62].distance(to: p[66]),
            p[51].distance(to: p[57]),
            cornerY - p[33].y,
            p[48].distance(to: p[54]) / jawWidth,
            (EyeFeatures.aspectRatio(shape.rightEye) + EyeFeatures.aspectRatio(shape.leftEye)) / 2,
        ]
    }
}
