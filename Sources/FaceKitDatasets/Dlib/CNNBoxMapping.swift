import Foundation

import FaceKit

/// Maps dlib's MMOD CNN boxes onto the HOG box convention that the 68-point model was trained on.
///
/// The CNN's boxes sit a little higher and are a little smaller than the HOG detector's; fed to
/// the shape predictor unmapped, they roughly double its error (measured in
/// ../shared/docs). The constants are medians over CNN/HOG box pairs (IoU >= 0.5) on the
/// fitting photos (dlib-faces training.xml images and identities/train), produced by
/// `swift run -c release facekit-train cnn-box-mapping`; the evaluation sets were not used.
///
/// ```swift
/// CNNBoxMapping.hogStyle(CGRect(x: 100, y: 100, width: 100, height: 100))
/// // ≈ (95.8, 104.2, 109.3, 109.1)
/// ```
enum CNNBoxMapping {
    /// HOG left minus CNN left, as a fraction of the CNN box's width.
    static let xOffset = -0.0424
    /// HOG top minus CNN top, as a fraction of the CNN box's height.
    static let yOffset = 0.0424
    static let widthScale = 1.0928
    static let heightScale = 1.0909

    static func hogStyle(_ box: CGRect) -> CGRect {
        CGRect(
            x: box.minX + xOffset * box.width, y: box.minY + yOffset * box.height,
            width: box.width * widthScale, height: box.height * heightScale)
    }
}
