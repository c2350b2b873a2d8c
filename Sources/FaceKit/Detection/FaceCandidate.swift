import Foundation

// FaceCandidate and FaceFinder are `package` (the tools see them, users of the library do not):
// facekit-evaluate puts dlib's former detectors (FaceKitDatasets' DlibFaceFinder) in FaceDetector's
// place of YuNet, to measure YuNet against them with everything after detection unchanged.

/// A face a detector found, before its landmarks are placed.
package struct FaceCandidate: Equatable, Sendable {
    /// The face's reported box (``Face/frame``): YuNet's own, which covers the face from the
    /// hairline to the chin as WIDER FACE's and ML Kit's boxes do; dlib's for dlib's detectors.
    package var frame: CGRect
    /// The box the 68-point model starts from, in dlib's HOG convention (``LandmarkSeed``).
    package var seedBox: CGRect
    /// The detector's confidence (YuNet: 0 ... 1).
    package var score: Double
    /// YuNet's five keypoints (the subject's right eye, left eye, nose tip, right and left mouth
    /// corner); empty for dlib's detectors.
    package var keypoints: [CGPoint] = []
    /// For a face found lying or upside down (in a turned search pass), its roll in the image:
    /// the angle of its eye line (subject's right eye to left eye), in radians, clockwise on
    /// screen; the 68-point model then reads an upright view of it (``UprightSeed``). `nil` for a
    /// face found upright, whose first 68 points tell its roll.
    package var roll: Double?
    /// Whether its detection came from the diagonal view (the image turned 45 degrees): it is kept
    /// on its upright look alone (``FaceDetector/examine(_:search:lookingAtAll:)``), since the
    /// view also shows animals' heads and patterns at rolls no upright search tries.
    package var isDiagonal: Bool
    /// For a detection from the diagonal view, the detection of the other passes that it
    /// replaced in suppression (none or one): examined in its stead, as it would have been
    /// without the view, when the diagonal one's upright look does not keep it.
    package var displaced: [FaceCandidate] = []

    package init(
        frame: CGRect, seedBox: CGRect, score: Double, keypoints: [CGPoint] = [], roll: Double? = nil,
        isDiagonal: Bool = false
    ) {
        self.frame = frame
        self.seedBox = seedBox
        self.score = score
        self.keypoints = keypoints
        self.roll = roll
        self.isDiagonal = isDiagonal
    }
}

/// Finds faces in an image: YuNet (``YuNetFaceFinder``), or dlib's detectors kept for comparison
/// (`DlibFaceFinder` in FaceKitDatasets).
///
/// Sendable, so that a ``FaceDetector`` is: a finder whose native detector must not run on two
/// threads at once keeps it behind a `Mutex`, and concurrent calls take turns.
package protocol FaceFinder: AnyObject, Sendable {
    /// The faces in `image`, in its pixels, best first, searched as `search` says where the
    /// finder can (dlib's detectors search upright faces only).
    func candidates(in image: FaceImage, search: FaceSearch) throws(FaceKitError)
        -> [FaceCandidate]
    /// How sure the finder is of the face at `seedBox` seen upright (turned by `roll`, its eye
    /// line's angle in radians, clockwise on screen); `nil` for a finder that cannot say.
    func uprightScore(in image: FaceImage, seedBox: CGRect, roll: Double) throws(FaceKitError) -> Double?
}

extension FaceFinder {
    package func uprightScore(in image: FaceImage, seedBox: CGRect, roll: Double) throws(FaceKitError) -> Double? { nil }
}
