import Foundation

/// One pass of the face detector's network over an image: a region, resized by a scale, possibly
/// mirrored left-right, and possibly turned by quarter turns.
///
/// ```swift
/// SearchPass(region: CGRect(x: 0, y: 0, width: 1000, height: 667), scale: 0.3, isMirrored: false)
/// // the network sees a 300 x 200 image (padded to 320 x 224)
/// ```
struct SearchPass: Equatable, Sendable {
    /// Pixels of the image; what lies outside the image is searched as a grey border (a
    /// close-up's face may be larger than the picture).
    var region: CGRect
    /// Network pixels per image pixel.
    var scale: Double
    var isMirrored: Bool
    /// Clockwise quarter turns of the resized region before the network sees it (0 ... 3): a face
    /// lying on its side or upside down in the image stands upright in one of them.
    var quarterTurns: Int = 0
}
