import Foundation

// Behind @_spi(Training): facekit-train extracts its features with the runtime's own code, so
// that the model is trained on exactly what it is later given.

/// What an eye looks like, as numbers: a histogram of gradient orientations (HOG) over a grey
/// patch of the eye, aligned by the face.
///
/// The 68 points' geometry alone reads one person's narrow open eyes as another's closed ones;
/// the patch shows what the lids cover: an open eye has the round edges of the iris and the
/// bright-dark-bright band of sclera and pupil, a closed one a single curved line of lashes.
/// The patch (``Layout``) is centred on the eye, a multiple of its corner-to-corner width wide
/// and high, turned so that the face's eye axis is horizontal; the left eye is mirrored, so both
/// eyes look alike (outer corner on the left). Its gradients are binned by unsigned orientation
/// in a grid of cells, and the whole descriptor is normalised (L2, clipped at 0.2, normalised
/// again, as SIFT does) so that lighting and contrast do not count.
@_spi(Training) public enum EyeAppearance {
    /// How the patch is cut and binned.
    public struct Layout: Sendable, Equatable {
        /// The patch's size in eye widths (corner to corner).
        public var widthInEyes: Double
        public var heightInEyes: Double
        public var patchWidth: Int
        public var patchHeight: Int
        public var cellColumns: Int
        public var cellRows: Int
        public var bins: Int
        public var featureCount: Int { cellColumns * cellRows * bins }

        public init(
            widthInEyes: Double, heightInEyes: Double, patchWidth: Int, patchHeight: Int, cellColumns: Int, cellRows: Int,
            bins: Int
        ) {
            self.widthInEyes = widthInEyes
            self.heightInEyes = heightInEyes
            self.patchWidth = patchWidth
            self.patchHeight = patchHeight
            self.cellColumns = cellColumns
            self.cellRows = cellRows
            self.bins = bins
        }
    }

    /// The layout the eye model was chosen with (docs/accuracy.md, "Eyes open"): 1.5 eye widths
    /// wide and 0.6 high, which leaves out most of a pair of glasses' rims, sampled at 36 x 16,
    /// in 4 x 2 cells of 6 orientations (48 numbers).
    public static let layout = Layout(
        widthInEyes: 1.5, heightInEyes: 0.6, patchWidth: 36, patchHeight: 16, cellColumns: 4, cellRows: 2, bins: 6)

    /// The eye's grey patch (`patchWidth` x `patchHeight` bytes, rows packed); `shape` is in
    /// full-size coordinates of the image `image` was decoded from.
    public static func patch(
        of eye: EyeFeatures.Eye, shape: FaceShape, in image: FaceImage, layout: Layout = layout
    ) throws(FaceKitError) -> [UInt8]? {
        let points = (eye == .left ? shape.leftEye : shape.rightEye).map(image.decodedPoint)
        guard let axis = shape.eyeAxis else { return nil }
        let width = points[0].distance(to: points[3])
        guard width > 0, width.isFinite else { return nil }
        let centre = points[0].interpolated(to: points[3], fraction: 0.5)
        let (patchWidth, patchHeight) = (layout.patchWidth, layout.patchHeight)
        let step = layout.widthInEyes * width / Double(patchWidth)
        let down = axis.perpendicularClockwise * (layout.heightInEyes / layout.widthInEyes * Double(patchWidth) / Double(patchHeight))
        let across = eye == .left ? axis * -1 : axis
        let origin = centre - across * (step * Double(patchWidth - 1) / 2) - down * (step * Double(patchHeight - 1) / 2)
        let affine = [across.x * step, down.x * step, origin.x, across.y * step, down.y * step, origin.y]
        return try image.grayPatch(affine: affine, width: patchWidth, height: patchHeight)
    }

    /// The eye's appearance features (`layout.featureCount` numbers), or `nil` when its points
    /// are degenerate.
    public static func features(
        of eye: EyeFeatures.Eye, shape: FaceShape, in image: FaceImage, layout: Layout = layout
    ) throws(FaceKitError) -> [Double]? {
        try patch(of: eye, shape: shape, in: image, layout: layout).map { histogram(ofPatch: $0, layout: layout) }
    }

    /// The normalised orientation histograms of a patch cut as `layout` says.
    public static func histogram(ofPatch pixels: [UInt8], layout: Layout = layout) -> [Double] {
        let (patchWidth, patchHeight, cellColumns, cellRows, bins) = (
            layout.patchWidth, layout.patchHeight, layout.cellColumns, layout.cellRows, layout.bins
        )
        precondition(pixels.count == patchWidth * patchHeight, "EyeAppearance: wrong patch size")
        var cells = [Double](repeating: 0, count: layout.featureCount)
        let cellWidth = Double(patchWidth) / Double(cellColumns)
        let cellHeight = Double(patchHeight) / Double(cellRows)
        func value(_ x: Int, _ y: Int) -> Double { Double(pixels[y * patchWidth + x]) }
        for y in 1..<(patchHeight - 1) {
            for x in 1..<(patchWidth - 1) {
                let dx = value(x + 1, y) - value(x - 1, y)
                let dy = value(x, y + 1) - value(x, y - 1)
                let magnitude = (dx * dx + dy * dy).squareRoot()
                guard magnitude > 0 else { continue }
                // Unsigned orientation in [0, bins), shared linearly between the two nearest bins.
                var angle = atan2(dy, dx)
                if angle < 0 { angle += .pi }
                let position = angle / .pi * Double(bins) - 0.5
                let lower = Int(position.rounded(.down))
                let fraction = position - Double(lower)
                let cell = (Int(Double(y) / cellHeight) * cellColumns + Int(Double(x) / cellWidth)) * bins
                cells[cell + (lower + bins) % bins] += magnitude * (1 - fraction)
                cells[cell + (lower + 1) % bins] += magnitude * fraction
            }
        }
        return normalised(normalised(cells).map { min($0, 0.2) })
    }

    private static func normalised(_ values: [Double]) -> [Double] {
        let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return values.map { $0 / (norm + 1e-9) }
    }
}
