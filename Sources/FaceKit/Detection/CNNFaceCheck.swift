import Foundation
import Synchronization

/// A photo's third look at a face: dlib's MMOD CNN (mmod_human_face_detector.dat, trained on
/// other photos than YuNet) asked about a face that both of YuNet's looks, the search's and the
/// upright one's (``FaceFinder/uprightScore(in:seedBox:roll:)``), score under the minimum
/// detection score. The face is kept when the network finds it, at ``minimumConfidence``, in a
/// ``viewSide`` px view of it turned upright by its eye line (the face about 96 px wide, the
/// network's smallest faces being 80 px).
///
/// A closed-eyed face is what YuNet most often leaves under the minimum; the CNN, trained on
/// other faces, does not depend on the eyes as YuNet's score does, and rarely sees a face in
/// a false detection's view (docs/accuracy.md, "Finding every face"). It runs only for the few
/// faces both YuNet looks doubt, never in video (``FaceSearch/secondLook``).
///
/// Each detector has its own (dlib's network keeps its activations); calls take turns.
package final class CNNFaceCheck: Sendable {
    /// The CNN's confidence (dlib's own threshold is 0) at which it keeps a face, chosen on the
    /// development data by leave-one-set-out (docs/accuracy.md, "Finding every face").
    package static let minimumConfidence = 0.4
    static let viewSide = 240
    /// Seed-box sides across the view.
    static let viewSpan = 2.5
    /// The levels of dlib's image pyramid searched (each 5/6 of the last): faces of 80 to about
    /// 115 px in the view, where the face is about 96, for a fifth of the whole pyramid's time.
    static let pyramidLevels = 3
    /// The lowest of YuNet's two scores (the better) at which a face is asked about: under it the
    /// development photos held about half the faces both looks doubt and none the CNN kept
    /// (docs/accuracy.md, "Finding every face"), and each question costs a network pass.
    package static let minimumYuNetScore = 0.5
    /// The lowest confidence asked for and reported: what ``confidence(in:seedBox:roll:)`` says
    /// when the network sees no face where the face should be.
    package static let floor = -1.0

    private let network: Mutex<NativeMMODDetector>

    /// Reads the network at `modelPath` (``ModelLocator/Model/cnnFaceDetector``).
    init(modelPath: String) throws(FaceKitError) {
        network = Mutex(try NativeMMODDetector(modelPath: modelPath))
    }

    /// The CNN's confidence in the face at `seedBox` (pixels of `image` as decoded) turned
    /// upright by `roll` (its eye line's angle, radians, clockwise on screen), and the roll of the
    /// view that gave it; ``floor`` when it sees none.
    ///
    /// With `turning` (for a face a turned search pass found), when that view does not reach
    /// ``minimumConfidence``, the views a quarter, half and three quarters of a turn further are
    /// tried too, and the best is returned: a closed-eyed face at an angle is what a turned pass
    /// takes the wrong way up, and its 68 points, placed from that pass's roll, then give a roll
    /// off by as much.
    func confidence(in image: FaceImage, seedBox: CGRect, roll: Double, turning: Bool) throws(FaceKitError)
        -> (confidence: Double, roll: Double)
    {
        var best = (confidence: Self.floor, roll: roll)
        for turn in 0..<(turning ? 4 : 1) {
            let turned = remainder(roll + Double(turn) * .pi / 2, 2 * .pi)
            let confidence = try Self.confidence(in: image, seedBox: seedBox, roll: turned) { view throws(FaceKitError) in
                try network.withLock { (network) throws(FaceKitError) in
                    try network.detect(in: view, threshold: Self.floor, levels: Self.pyramidLevels).map { ($0.box, $0.score) }
                }
            }
            if confidence > best.confidence { best = (confidence, turned) }
            if best.confidence >= Self.minimumConfidence { break }
        }
        return best
    }

    /// The best score `detect` gives a face in the upright view of the face at `seedBox` that
    /// is centred within 0.3 face widths of the view's centre and 0.5-2 face widths wide, or
    /// ``floor``: the check's geometry for any detector (facekit-evaluate coverage also asks
    /// dlib's HOG detector).
    package static func confidence(
        in image: FaceImage, seedBox: CGRect, roll: Double,
        detect: (FaceImage) throws(FaceKitError) -> [(box: CGRect, score: Double)]
    ) throws(FaceKitError) -> Double {
        let view = try YuNetFaceFinder.uprightView(of: image, seedBox: seedBox, roll: roll, span: viewSpan, side: viewSide)
        let (centre, expected) = (Double(viewSide) / 2, Double(viewSide) / viewSpan)
        return try detect(view).filter {
            hypot(Double($0.box.midX) - centre, Double($0.box.midY) - centre) < 0.3 * expected
                && (0.5 * expected...2 * expected).contains(Double($0.box.width))
        }.map(\.score).max() ?? floor
    }
}
