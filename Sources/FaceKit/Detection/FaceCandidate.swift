import Foundation

/// A face a detector found, before its landmarks are placed.
struct FaceCandidate: Equatable, Sendable {
    /// The face's reported box (``Face/frame``): YuNet's own, which covers the face from the
    /// hairline to the chin as WIDER FACE's and ML Kit's boxes do; dlib's for dlib's detectors.
    var frame: CGRect
    /// The box the 68-point model starts from, in dlib's HOG convention (``LandmarkSeed``).
    var seedBox: CGRect
    /// The detector's confidence (YuNet: 0 ... 1).
    var score: Double
    /// YuNet's five keypoints (the subject's right eye, left eye, nose tip, right and left mouth
    /// corner); empty for dlib's detectors.
    var keypoints: [CGPoint] = []
}

/// Finds faces in an image: YuNet (``YuNetFaceFinder``), or dlib's detectors kept for comparison
/// (``DlibFaceFinder``). Not thread-safe: one per thread.
protocol FaceFinder: AnyObject {
    /// The faces in `image`, in its pixels, best first.
    func candidates(in image: FaceImage) throws(FaceKitError) -> [FaceCandidate]
}
