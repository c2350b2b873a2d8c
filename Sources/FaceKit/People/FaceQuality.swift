import Foundation

/// How good a shot of a face is, in 0-1, for choosing each person's and each track's best
/// shot: the weighted geometric mean of five terms, each in 0-1,
///
///     quality = size^0.25 · sharpness^0.25 · frontalness^0.25 · eyesOpen^0.15 · exposure^0.10
///
/// - size: box width / 160 px, at most 1 (160 px holds every detail the descriptor uses);
/// - sharpness: v / (v + 100), v the variance of the Laplacian of the face's box sampled to a
///   64 x 64 grey chip (so that it measures blur, not size); a sharp face has v in the hundreds;
/// - frontalness: 1 - (angle / 60°)², angle = √(yaw² + pitch²), at least 0;
/// - eyesOpen: the mean of the eye-open probabilities present, 1 when none was computed;
/// - exposure: 1 - |m - 128| / 128, m the chip's mean grey level.
///
/// Each term is floored at 0.01, so that one bad term lowers the score without erasing how the
/// others compare. A geometric mean, because a blurred or turned face is a poor shot however
/// large it is.
public enum FaceQuality {
    /// Side of the grey chip the sharpness and exposure are measured on.
    static let chipSide = 64

    /// The terms of the formula, named as in the documentation.
    public struct Terms: Sendable, Equatable {
        public var size, sharpness, frontalness, eyesOpen, exposure: Double
    }

    /// The weighted geometric mean of `terms`.
    public static func score(_ terms: Terms) -> Double {
        let weighted: [(Double, Double)] = [
            (terms.size, 0.25), (terms.sharpness, 0.25), (terms.frontalness, 0.25), (terms.eyesOpen, 0.15),
            (terms.exposure, 0.10),
        ]
        return weighted.reduce(1.0) { product, term in product * pow(min(1, max(0.01, term.0)), term.1) }
    }

    /// The terms of `face` (whose box, angles and probabilities are set) in `image`.
    static func terms(of face: Face, in image: FaceImage) throws(FaceKitError) -> Terms {
        let chip = try self.chip(of: face.frame, in: image)
        let variance = laplacianVariance(of: chip, side: chipSide)
        let mean = chip.reduce(0.0) { $0 + Double($1) } / Double(chip.count)
        let angle = (face.headEulerAngleX * face.headEulerAngleX + face.headEulerAngleY * face.headEulerAngleY)
            .squareRoot()
        let eyes = [face.leftEyeOpenProbability, face.rightEyeOpenProbability].compactMap { $0 }
        return Terms(
            size: min(1, Double(face.frame.width) / 160),
            sharpness: variance / (variance + 100),
            frontalness: max(0, 1 - (angle / 60) * (angle / 60)),
            eyesOpen: eyes.isEmpty ? 1 : eyes.reduce(0, +) / Double(eyes.count),
            exposure: max(0, 1 - abs(mean - 128) / 128))
    }

    /// The face's quality: ``score(_:)`` of its ``terms(of:in:)``.
    static func quality(of face: Face, in image: FaceImage) throws(FaceKitError) -> Double {
        score(try terms(of: face, in: image))
    }

    /// `box` (full-size pixels) sampled to a ``chipSide``-square grey chip.
    private static func chip(of box: CGRect, in image: FaceImage) throws(FaceKitError) -> [UInt8] {
        let origin = image.decodedPoint(box.origin)
        let reduction = Double(image.reduction)
        let step = (x: Double(box.width) / reduction / Double(chipSide), y: Double(box.height) / reduction / Double(chipSide))
        return try image.grayPatch(
            affine: [step.x, 0, Double(origin.x) + step.x / 2, 0, step.y, Double(origin.y) + step.y / 2],
            width: chipSide, height: chipSide)
    }

    /// Variance of the 4-neighbour Laplacian over the inner pixels of a `side`-square chip.
    static func laplacianVariance(of pixels: [UInt8], side: Int) -> Double {
        var sum = 0.0
        var squares = 0.0
        for y in 1..<(side - 1) {
            for x in 1..<(side - 1) {
                let centre = Double(pixels[y * side + x])
                let value = Double(pixels[y * side + x - 1]) + Double(pixels[y * side + x + 1])
                    + Double(pixels[(y - 1) * side + x]) + Double(pixels[(y + 1) * side + x]) - 4 * centre
                sum += value
                squares += value * value
            }
        }
        let count = Double((side - 2) * (side - 2))
        let mean = sum / count
        return squares / count - mean * mean
    }
}
