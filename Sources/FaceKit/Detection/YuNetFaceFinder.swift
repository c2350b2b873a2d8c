import Foundation
import Synchronization

/// FaceKit's face detector: YuNet, run over the passes a ``SearchPlan`` chooses (each also
/// mirrored and fused by ``MirrorFusion`` when the plan says so), merged by non-maximum
/// suppression, each face given the seed box of ``LandmarkSeed``.
final class YuNetFaceFinder: FaceFinder {
    /// Overlap above which two detections are one face, within a pass and between passes; 0.3
    /// is YuNet's own evaluation setting (libfacedetection.train).
    static let maximumOverlap = 0.3
    /// Faces narrower than this share of the smallest face minFaceSize asks for are dropped;
    /// those between it and the minimum are kept, as the search finds them anyway.
    static let smallestShareOfMinimum = 0.5

    let plan: SearchPlan
    /// The detector's options: the smallest face they ask for and the minimum score.
    let options: FaceDetectorOptions
    var minimumScore: Double { options.minDetectionScore }
    /// The network keeps its activations, so one pass runs at a time; a detector per thread
    /// (``FaceDetector/init(sharingModelsWith:)``) never waits here.
    private let network: Mutex<NativeYuNet>

    init(network: sending NativeYuNet, plan: SearchPlan, options: FaceDetectorOptions) {
        self.network = Mutex(network)
        self.plan = plan
        self.options = options
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
        let passes = plan.passes(imageWidth: image.width, imageHeight: image.height, options: options)
        let coarsest = passes.map(\.scale).min() ?? 0
        var found: [NativeYuNet.Face] = []
        for pass in passes {
            var faces: [NativeYuNet.Face]
            if plan.mirrored {
                let floor = MirrorFusion.passThreshold(for: minimumScore)
                var twin = pass
                twin.isMirrored = true
                faces = MirrorFusion.fused(
                    try detect(in: image, pass: pass, minimumScore: floor),
                    try detect(in: image, pass: twin, minimumScore: floor), minimumScore: minimumScore)
            } else {
                faces = try detect(in: image, pass: pass, minimumScore: minimumScore)
            }
            // A face too large for this level's share of the pyramid is the coarser level's to
            // find: large non-faces (a dog's head) scored above the threshold only when searched
            // finer than the plan intends.
            if pass.scale > coarsest {
                faces.removeAll { Double($0.box.width) * pass.scale >= plan.largestFaceOfLevel }
            }
            found += faces
        }
        // Far below the smallest face asked for: specks (a 6 px "face" in a 480 px photo at
        // minFaceSize 0.05), never the faces the search is for.
        let smallestBox = options.smallestFaceBox(imageWidth: image.width) * Self.smallestShareOfMinimum
        found.removeAll { Double($0.box.width) < smallestBox }
        guard passes.count > 1 else { return found }
        return NonMaximumSuppression.kept(
            scores: found.map(\.score), boxes: found.map(\.box), maximumOverlap: Self.maximumOverlap
        ).map { found[$0] }
    }

    /// One network pass, thinned at ``maximumOverlap``.
    private func detect(in image: FaceImage, pass: SearchPass, minimumScore: Double) throws(FaceKitError)
        -> [NativeYuNet.Face]
    {
        try network.withLock { (network) throws(FaceKitError) -> [NativeYuNet.Face] in
            try network.detect(in: image, pass: pass, minimumScore: minimumScore, maximumOverlap: Self.maximumOverlap)
        }
    }
}
