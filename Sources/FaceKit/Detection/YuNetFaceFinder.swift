import Foundation

/// FaceKit's face detector: YuNet, run over the passes a ``SearchPlan`` chooses (each also
/// mirrored and fused by ``MirrorFusion`` when the plan says so), merged by non-maximum
/// suppression, each face given the seed box of ``LandmarkSeed``.
final class YuNetFaceFinder: FaceFinder {
    /// Overlap above which two detections are one face, within a pass and between passes; 0.3
    /// is YuNet's own evaluation setting (libfacedetection.train).
    static let maximumOverlap = 0.3

    let plan: SearchPlan
    let minimumScore: Double
    let minFaceSize: Double
    private let network: NativeYuNet

    init(network: NativeYuNet, plan: SearchPlan, minimumScore: Double, minFaceSize: Double) {
        self.network = network
        self.plan = plan
        self.minimumScore = minimumScore
        self.minFaceSize = minFaceSize
    }

    func candidates(in image: FaceImage) throws(FaceKitError) -> [FaceCandidate] {
        try detections(in: image).map { face in
            FaceCandidate(
                frame: face.box, seedBox: LandmarkSeed.box(yunetBox: face.box, keypoints: face.keypoints), score: face.score,
                keypoints: face.keypoints)
        }
    }

    /// YuNet's own faces, merged over every pass, best first.
    func detections(in image: FaceImage) throws(FaceKitError) -> [NativeYuNet.Face] {
        let passes = plan.passes(imageWidth: image.width, imageHeight: image.height, minFaceSize: minFaceSize)
        var found: [NativeYuNet.Face] = []
        for pass in passes {
            guard plan.mirrored else {
                found += try network.detect(
                    in: image, pass: pass, minimumScore: minimumScore, maximumOverlap: Self.maximumOverlap)
                continue
            }
            let floor = MirrorFusion.passThreshold(for: minimumScore)
            var twin = pass
            twin.isMirrored = true
            found += MirrorFusion.fused(
                try network.detect(in: image, pass: pass, minimumScore: floor, maximumOverlap: Self.maximumOverlap),
                try network.detect(in: image, pass: twin, minimumScore: floor, maximumOverlap: Self.maximumOverlap),
                minimumScore: minimumScore)
        }
        guard passes.count > 1 else { return found }
        return NonMaximumSuppression.kept(
            scores: found.map(\.score), boxes: found.map(\.box), maximumOverlap: Self.maximumOverlap
        ).map { found[$0] }
    }
}
