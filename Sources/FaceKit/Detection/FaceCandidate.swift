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

    package init(frame: CGRect, seedBox: CGRect, score: Double, keypoints: [CGPoint] = []) {
        self.frame = frame
        self.seedBox = seedBox
        self.score = score
        self.keypoints = keypoints
    }
}

/// Finds faces in an image: YuNet (``YuNetFaceFinder``), or dlib's detectors kept for comparison
/// (`DlibFaceFinder` in FaceKitDatasets).
///
/// Sendable, so that a ``FaceDetector`` is: a finder whose native detector must not run on two
/// threads at once keeps it behind a `Mutex`, and concurrent calls take turns.
package protocol FaceFinder: AnyObject, Sendable {
    /// The faces in `image`, in its pixels, best first.
    func candidates(in image: FaceImage) throws(FaceKitError) -> [FaceCandidate]
}
