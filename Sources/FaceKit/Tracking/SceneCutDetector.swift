import Foundation

/// Tells a cut (an edit from one shot to another) from motion, so that a face in the new shot
/// does not inherit the ID of the face that happened to be at the same place in the old one.
///
/// Each frame is reduced to a 64 x 36 grey thumbnail (each pixel the mean of 2 x 2 samples); its
/// mean absolute difference from the previous frame's, on a 0-255 scale, is the frame's change.
/// A cut is a change above ``minimumChange`` that is also ``minimumJump`` above the previous
/// frame's change, as ffmpeg's `scdet` filter scores it: a pan or a flash changes many frames in
/// a row, a cut one. On the development clips (docs/accuracy.md, "Tracks across cuts";
/// `facekit-evaluate cuts`) the 7 cuts change 27-45 levels and jump 23-44; motion changes up to
/// 24 (the OTB Girl clip: a hand-held camera on a face that fills the picture) but jumps at most
/// 15.
package struct SceneCutDetector: Sendable {
    package static let minimumChange = 24.0
    package static let minimumJump = 20.0
    static let thumbnailWidth = 64
    static let thumbnailHeight = 36

    private var previous: [Double]?
    private var previousChange = 0.0

    package init() {}

    /// Whether `image` starts a new shot; the first frame does not.
    package mutating func isCut(_ image: FaceImage) throws(FaceKitError) -> Bool {
        let measured = try measure(image)
        return measured.change > Self.minimumChange && measured.jump > Self.minimumJump
    }

    /// How much `image` changed from the previous frame (mean absolute difference of the
    /// thumbnails, grey levels) and by how much more than the previous frame did; both 0 for the
    /// first frame. For measuring the thresholds (`facekit-evaluate cuts`).
    package mutating func measure(_ image: FaceImage) throws(FaceKitError) -> (change: Double, jump: Double) {
        let thumbnail = try Self.thumbnail(of: image)
        defer { previous = thumbnail }
        guard let previous else { return (0, 0) }
        var sum = 0.0
        for index in thumbnail.indices { sum += abs(thumbnail[index] - previous[index]) }
        let change = sum / Double(thumbnail.count)
        defer { previousChange = change }
        return (change, change - previousChange)
    }

    /// The frame's grey thumbnail, row by row.
    static func thumbnail(of image: FaceImage) throws(FaceKitError) -> [Double] {
        let (width, height) = (thumbnailWidth * 2, thumbnailHeight * 2)
        let step = (x: Double(image.width) / Double(width), y: Double(image.height) / Double(height))
        let samples = try image.grayPatch(
            affine: [step.x, 0, step.x / 2, 0, step.y, step.y / 2], width: width, height: height)
        var thumbnail = [Double](repeating: 0, count: thumbnailWidth * thumbnailHeight)
        for y in 0..<height {
            for x in 0..<width {
                thumbnail[(y / 2) * thumbnailWidth + x / 2] += Double(samples[y * width + x]) / 4
            }
        }
        return thumbnail
    }
}
