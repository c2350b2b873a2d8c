import Foundation

/// Carries a face from one video frame to the next without running the detector: some of its
/// 68 points (``followedIndices``) are followed by optical flow (``NativePointTracker``, on the
/// frame reduced by ``reduction(frameWidth:options:)``), the seed box is moved and scaled as
/// they moved, and the 68-point model is run again from that box.
///
/// Following fails, and the caller should detect again, when fewer than half the points come
/// back to within ``maximumForwardBackwardError`` of where they started (the face was covered,
/// turned away, or left), when the points that did come back do not move together
/// (``maximumMotionResidual``: something is passing over the face), or when the 68-point model
/// then places its points away from where the flow took them (it locked onto something else).
///
/// ```swift
/// if let motion = try FaceFollower.move(previous, with: pointTracker, in: frame),
///    let carried = FaceFollower.carried(previous, by: motion, shape: try detector.shape(in: frame, seedBox: motion.seedBox)) {
///     ...   // nil on either step: lost, detect again
/// }
/// ```
enum FaceFollower {
    /// What is carried: the face's points and boxes in the previous frame.
    struct State: Sendable {
        var shape: FaceShape
        /// The reported box (``FaceCandidate/frame``).
        var frame: CGRect
        /// The box the 68-point model starts from (``FaceCandidate/seedBox``).
        var seedBox: CGRect
        var detectionScore: Double
        /// The share of the followed points the flow brought back into this frame; `nil` when the
        /// detector found the face in it.
        var followedShare: Double? = nil
    }

    /// Largest forward-backward error, as a fraction of the seed box's width, for a point to
    /// count as followed (1 px on a 50 px face, 4 px on a 200 px one), and never under half a
    /// pixel.
    static let maximumForwardBackwardError = 0.02
    /// The points followed: every other point of the brows, nose, eyes and mouth (17, 19, ...
    /// 67; 26 of them). The jaw line is left out: it lies on the face's edge, where the
    /// background shows through the flow's window. Following all 51 scored the same on the
    /// tracking clips and for blinks, at twice the flow's cost (docs/accuracy.md, "Smoothing and
    /// jitter").
    static let followedIndices = Array(stride(from: 17, to: FaceShape.pointCount, by: 2))
    /// Smallest share of the followed points that must come back.
    static let minimumFollowedShare = 0.5
    /// Largest median distance, as a fraction of the outer-eye-corner distance, between a
    /// followed point and where the face's overall motion (translation and scale) takes it: in
    /// real video 99% of frames stay under 0.036, but a face being covered does not, because the
    /// covered points slide with what covers them.
    static let maximumMotionResidual = 0.04
    /// Largest mean distance between the re-placed points and the followed ones, as a fraction of
    /// the outer-eye-corner distance: beyond it the model found another structure.
    static let maximumShapeDisagreement = 0.15

    /// Smallest width, in pixels of the image the flow follows, of the smallest face the options
    /// ask for: YuNet's own smallest face (``SearchPlan``), well above the flow's 15 px window.
    static let smallestFollowedFace = 24.0
    /// Frames wider than this are always followed reduced, which bounds the cost of 4K video.
    static let maximumFollowedWidth = 960
    /// Frames are not reduced below this width, which leaves the flow's pyramid its levels.
    static let minimumFollowedWidth = 160

    /// By how much a frame `frameWidth` pixels wide is reduced before optical flow: the largest
    /// power of two that keeps the smallest face `minFaceSize` asks for at least
    /// ``smallestFollowedFace`` wide and the frame at least ``minimumFollowedWidth``, and at
    /// least what brings the frame within ``maximumFollowedWidth``. At the default minFaceSize,
    /// 640 px video is followed at half size: the same tracking scores, eye readings within 0.005
    /// of AUC, a quarter of the flow's pixels (docs/accuracy.md, "Smoothing and jitter").
    static func reduction(frameWidth: Int, options: FaceDetectorOptions) -> Int {
        let smallestFace = options.smallestFaceBox(imageWidth: frameWidth)
        var reduction = 1
        while reduction < 64, smallestFace / Double(reduction * 2) >= smallestFollowedFace,
            frameWidth / (reduction * 2) >= minimumFollowedWidth
        {
            reduction *= 2
        }
        while reduction < 64, frameWidth / reduction > maximumFollowedWidth { reduction *= 2 }
        return reduction
    }

    /// Where the flow took a face: its boxes, moved and scaled as its points moved, and the
    /// points that were followed (indices into the 68, with their new positions).
    struct Motion {
        var frame: CGRect
        var seedBox: CGRect
        var points: [(index: Int, position: CGPoint)]
        /// The share of the followed points that came back (at least ``minimumFollowedShare``).
        var share: Double
    }

    /// The face that `motion` carried from `previous`, with `shape` placed from the motion's seed
    /// box (``FaceDetector/shapes(in:seedBoxes:)``), or `nil` when it is lost: the shape is
    /// implausible or parts from the followed points.
    static func carried(_ previous: State, by motion: Motion, shape: FaceShape) -> State? {
        guard shape.isPlausible, shape.interOcularDistance > 0 else { return nil }
        let disagreement =
            motion.points.map { shape.points[$0.index].distance(to: $0.position) }.reduce(0, +) / Double(motion.points.count)
        guard disagreement <= maximumShapeDisagreement * shape.interOcularDistance else { return nil }
        return State(
            shape: shape, frame: motion.frame, seedBox: motion.seedBox, detectionScore: previous.detectionScore,
            followedShare: motion.share)
    }

    /// How the flow moved `previous` into the current frame, without placing its points again;
    /// `nil` when too few points came back or they did not move together.
    static func move(_ previous: State, with pointTracker: NativePointTracker, in image: FaceImage)
        throws(FaceKitError) -> Motion?
    {
        let followed = try pointTracker.follow(followedIndices.map { previous.shape.points[$0] })
        let limit = max(0.5, maximumForwardBackwardError * Double(previous.seedBox.width))
        let good = followed.indices.filter { (followed[$0].forwardBackwardError ?? .infinity) <= limit }
        guard Double(good.count) >= minimumFollowedShare * Double(followed.count) else { return nil }

        // Translation and scale of the followed points, median-robust to a few that slid.
        let before = good.map { previous.shape.points[followedIndices[$0]] }, after = good.map { followed[$0].position }
        let centreBefore = CGPoint.mean(of: before), centreAfter = CGPoint.mean(of: after)
        let ratios = zip(before, after).compactMap { old, new -> Double? in
            let distance = old.distance(to: centreBefore)
            return distance > 1 ? new.distance(to: centreAfter) / distance : nil
        }
        guard let scale = median(ratios), scale > 0.5, scale < 2 else { return nil }
        let residuals = zip(before, after).map { old, new in
            new.distance(to: centreAfter + (old - centreBefore) * scale)
        }
        // One face moves as one: points that part ways were caught by something passing over it.
        guard let residual = median(residuals), residual <= maximumMotionResidual * previous.shape.interOcularDistance
        else { return nil }
        // Both boxes move and scale as the points did.
        func moved(_ box: CGRect) -> CGRect {
            let centre = centreAfter + (CGPoint(x: box.midX, y: box.midY) - centreBefore) * scale
            let width = Double(box.width) * scale, height = Double(box.height) * scale
            return CGRect(x: centre.x - width / 2, y: centre.y - height / 2, width: width, height: height)
        }
        let seedBox = moved(previous.seedBox)
        guard seedBox.intersects(CGRect(x: 0, y: 0, width: image.width, height: image.height)) else { return nil }
        return Motion(
            frame: moved(previous.frame), seedBox: seedBox, points: good.map { (followedIndices[$0], followed[$0].position) },
            share: Double(good.count) / Double(followed.count))
    }

    private static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
