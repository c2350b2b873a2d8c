import Foundation

// `package` (the tools see it, users of the library do not): `facekit-train landmark-seed` fits
// these constants from the same Features the runtime reads, so the fit and the use cannot drift
// apart.

/// The box the 68-point model starts from, for a face YuNet found.
///
/// dlib's shape predictor was trained on the boxes of dlib's HOG detector (square, from the
/// eyebrows to the chin) and places its points badly from other boxes. YuNet's boxes follow
/// WIDER FACE instead (taller, forehead included), but YuNet also places five keypoints, which
/// say where the face's inner features are even when the head is turned. The seed box is centred
/// from the keypoints and sized from the box and the keypoints' spread, with constants fitted by
/// `swift run -c release facekit-train landmark-seed` on the fitting photos only (see
/// docs/accuracy.md).
///
/// ```swift
/// LandmarkSeed.box(yunetBox: box, keypoints: fivePoints)   // a square box in dlib's convention
/// ```
package enum LandmarkSeed {
    /// Seed box centre = keypoint centre + (xOffset, yOffset) x YuNet box width.
    package static let xOffset = -0.0103
    package static let yOffset = -0.0035
    /// Seed box side = widthWeight x YuNet box width + spreadWeight x keypoint spread, where the
    /// spread is the distance from the eyes' midpoint to the mouth corners' midpoint plus the
    /// distance between the eyes.
    package static let widthWeight = 0.6602
    package static let spreadWeight = 0.4279

    package static func box(yunetBox: CGRect, keypoints: [CGPoint]) -> CGRect {
        let features = Features(yunetBox: yunetBox, keypoints: keypoints)
        let side = widthWeight * features.width + spreadWeight * features.spread
        let centre = CGPoint(
            x: features.centre.x + xOffset * features.width, y: features.centre.y + yOffset * features.width)
        return CGRect(x: centre.x - side / 2, y: centre.y - side / 2, width: side, height: side)
    }

    /// What the mapping reads from a YuNet face (shared with the fitting tool).
    package struct Features: Sendable {
        /// Mean of the five keypoints.
        package var centre: CGPoint
        package var width: Double
        /// Eyes' midpoint to mouth corners' midpoint, plus eye to eye.
        package var spread: Double

        package init(yunetBox: CGRect, keypoints: [CGPoint]) {
            precondition(keypoints.count == 5, "LandmarkSeed.Features: YuNet places 5 keypoints, got \(keypoints.count)")
            centre = .mean(of: keypoints[...])
            width = Double(yunetBox.width)
            let eyes = keypoints[0].interpolated(to: keypoints[1], fraction: 0.5)
            let mouth = keypoints[3].interpolated(to: keypoints[4], fraction: 0.5)
            spread = eyes.distance(to: mouth) + keypoints[0].distance(to: keypoints[1])
        }
    }
}
