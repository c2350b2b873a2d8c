import Foundation

// `package` (the tools see it, users of the library do not): `facekit-train detection-threshold`
// runs the runtime's detector with other plans to choose the performance modes' plans.

/// Chooses the network passes that find every face at least minFaceSize wide in an image.
///
/// YuNet finds faces from about 10 to about ``largestFace`` pixels wide in its input: smaller ones
/// score lower and their boxes are placed worse, larger ones score lower and their boxes come out
/// too small (measured on a face resized from 6 to 960 px). So the image is resized until the
/// smallest wanted face is ``smallestFace`` pixels wide in the network's input: a photo of large
/// faces is searched small (cheap), a small photo is enlarged (at most ``maximumUpscale`` times).
///
/// The plan is a pyramid: each level is searched at a quarter of the scale of the one below,
/// until one level holds the whole image in one tile and no face can be larger than
/// ``largestFace`` there (a face is at most as tall as the image is short). A resized image
/// larger than ``tileSide`` on a side is searched in overlapping tiles, which bounds memory. A
/// level is responsible for the faces from ``smallestFace`` to 4 x ``smallestFace`` wide (larger
/// ones are found a level up), and its tiles overlap by more than that, so every such face lies
/// whole inside some tile.
///
/// ```swift
/// let plan = SearchPlan(smallestFace: 24, mirrored: false)
/// plan.passes(imageWidth: 1000, imageHeight: 667, options: FaceDetectorOptions())   // minFaceSize 0.1
/// // one pass: the whole image at scale 0.3 (the smallest wanted face, an 80 px box, at 24 px)
/// ```
package struct SearchPlan: Equatable, Sendable {
    /// Width in network pixels that the smallest wanted face's box is resized to.
    package var smallestFace: Double
    /// Whether every pass is run a second time mirrored and the two fused (``MirrorFusion``):
    /// a face must then be found both ways round, which removes false detections, and its box
    /// and keypoints are the mean of both, which steadies them.
    package var mirrored: Bool

    package init(smallestFace: Double, mirrored: Bool) {
        self.smallestFace = smallestFace
        self.mirrored = mirrored
    }

    /// Faces wider than this in the network's input are found with lower scores and too small
    /// boxes.
    static let largestFace = 320.0
    /// The close-up pass (``closeUpPass(imageWidth:imageHeight:)``) resizes the image's short
    /// side to this many network pixels.
    static let closeUpShortSide = 192.0
    /// The close-up pass's grey border on each side, in the image's short sides: room for the
    /// rest of a face the frame cuts through its middle.
    static let closeUpBorder = 0.5
    /// The close-up pass keeps only faces at least this many of the image's short sides wide:
    /// the others are the regular passes' to find.
    static let closeUpSmallestFace = 0.4
    /// Enlarging further finds nothing new: the face has no detail left.
    static let maximumUpscale = 4.0
    /// The finest level holds at most this many pixels (a 6000 x 6000 search at most), bounding
    /// time for extreme minFaceSize values.
    static let maximumSearchPixels = 36_000_000.0
    /// Largest side of one pass, in network pixels (about 0.3 GB of activations).
    static let tileSide = 1024.0
    /// The long side of the smallest search, in network pixels.
    static let smallestSearchSide = 64.0
    /// Scale ratio between pyramid levels.
    static let levelRatio = 4.0

    /// Width in network pixels of the largest face a level is responsible for; larger ones are
    /// found a level up (the coarsest level takes every size).
    var largestFaceOfLevel: Double { smallestFace * Self.levelRatio }

    /// The passes for an image of this size, for the smallest face `options` ask for
    /// (``FaceDetectorOptions/smallestFaceBox(imageWidth:)``; unmirrored: the finder adds the
    /// mirrored twins); never empty for a non-empty image.
    func passes(imageWidth: Int, imageHeight: Int, options: FaceDetectorOptions) -> [SearchPass] {
        let width = Double(imageWidth), height = Double(imageHeight)
        guard width >= 1, height >= 1 else { return [] }
        var scale = finestScale(
            width: width, height: height, smallestBox: options.smallestFaceBox(imageWidth: imageWidth))
        var passes: [SearchPass] = []
        while true {
            passes += tiles(width: width, height: height, scale: scale)
            if max(width, height) * scale <= Self.tileSide && min(width, height) * scale <= Self.largestFace { break }
            scale /= Self.levelRatio
        }
        return passes
    }

    /// The pass that finds a face larger than the picture, or cut by its edge: the whole image
    /// with a grey border of ``closeUpBorder`` short sides, its short side resized to
    /// ``closeUpShortSide`` pixels. The regular passes see such a face with no background round
    /// it, or too large, and miss it.
    ///
    /// ```swift
    /// plan.closeUpPass(imageWidth: 400, imageHeight: 400)
    /// // region (-200, -200, 800, 800) at scale 0.48: the network sees 384 x 384
    /// ```
    func closeUpPass(imageWidth: Int, imageHeight: Int) -> SearchPass? {
        let width = Double(imageWidth), height = Double(imageHeight)
        guard width >= 1, height >= 1 else { return nil }
        let short = min(width, height)
        let border = Self.closeUpBorder * short
        return SearchPass(
            region: CGRect(x: -border, y: -border, width: width + 2 * border, height: height + 2 * border),
            scale: min(Self.maximumUpscale, Self.closeUpShortSide / short), isMirrored: false)
    }

    /// A coarse look at the whole image, at half the finest level's scale (within one tile):
    /// a quarter of the pixels, where faces twice the smallest wanted are as wide as the
    /// smallest are in the search. The finder looks so at the turned image before searching it.
    func probePass(imageWidth: Int, imageHeight: Int, options: FaceDetectorOptions) -> SearchPass {
        let width = Double(imageWidth), height = Double(imageHeight)
        let finest = finestScale(width: width, height: height, smallestBox: options.smallestFaceBox(imageWidth: imageWidth))
        let scale = min(finest / 2, Self.tileSide / max(width, height, 1))
        return SearchPass(region: CGRect(x: 0, y: 0, width: width, height: height), scale: scale, isMirrored: false)
    }

    /// The scale at which the smallest wanted face box (`smallestBox` pixels wide in the image)
    /// is ``smallestFace`` wide, within the bounds. Safe for any minFaceSize: a tiny or
    /// non-finite box gives the largest scale allowed.
    func finestScale(width: Double, height: Double, smallestBox: Double) -> Double {
        var scale = smallestBox > 0 && smallestBox.isFinite ? smallestFace / smallestBox : Self.maximumUpscale
        scale = min(scale, Self.maximumUpscale, (Self.maximumSearchPixels / (width * height)).squareRoot())
        // The network needs some pixels to look at: a whole-image face must still be found.
        return max(scale, min(Self.maximumUpscale, Self.smallestSearchSide / max(width, height)))
    }

    /// The level at `scale`: the whole image, or overlapping tiles of at most ``tileSide``.
    private func tiles(width: Double, height: Double, scale: Double) -> [SearchPass] {
        // Every face this level is responsible for (up to levelRatio x smallestFace) fits whole
        // in the overlap, with room for the network's context around it.
        let overlap = (Self.levelRatio * smallestFace * 1.5) / scale
        let side = Self.tileSide / scale
        func starts(_ length: Double) -> [Double] {
            guard length > side else { return [0] }
            let count = Int(((length - overlap) / (side - overlap)).rounded(.up))
            let step = (length - side) / Double(count - 1)
            return (0..<count).map { Double($0) * step }
        }
        return starts(height).flatMap { y in
            starts(width).map { x in
                SearchPass(
                    region: CGRect(x: x, y: y, width: min(side, width), height: min(side, height)),
                    scale: scale, isMirrored: false)
            }
        }
    }
}
