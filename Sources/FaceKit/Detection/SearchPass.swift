import Foundation

/// One pass of the face detector's network over an image: a region, resized by a scale, and
/// possibly mirrored left-right.
///
/// ```swift
/// SearchPass(region: CGRect(x: 0, y: 0, width: 1000, height: 667), scale: 0.3, isMirrored: false)
/// // the network sees a 300 x 200 image (padded to 320 x 224)
/// ```
struct SearchPass: Equatable, Sendable {
    /// Pixels of the image, clipped to it.
    var region: CGRect
    /// Network pixels per image pixel.
    var scale: Double
    var isMirrored: Bool
}
