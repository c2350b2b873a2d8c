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

    /// The lowest score a search keeps: the options' minimum, or when the search takes a second
    /// look at faces below it (``FaceSearch/secondLook``), ``FaceSearch/secondLookFloor``.
    func minimumScore(for search: FaceSearch) -> Double {
        search.secondLook ? min(options.minDetectionScore, FaceSearch.secondLookFloor) : options.minDetectionScore
    }
    /// The network keeps its activations, so one pass runs at a time; a detector per thread
    /// (``FaceDetector/init(sharingModelsWith:)``) never waits here.
    private let network: Mutex<NativeYuNet>

    init(network: sending NativeYuNet, plan: SearchPlan, options: FaceDetectorOptions) {
        self.network = Mutex(network)
        self.plan = plan
        self.options = options
    }

    func candidates(in image: FaceImage, search: FaceSearch) throws(FaceKitError)
        -> [FaceCandidate]
    {
        try searched(in: image, search: search).map { found in
            var candidate = Self.candidate(found.face)
            candidate.displaced = found.displaced.map { [Self.candidate($0)] } ?? []
            return candidate
        }
    }

    static func candidate(_ face: NativeYuNet.Face) -> FaceCandidate {
        let start = landmarkStart(of: face)
        return FaceCandidate(
            frame: face.box, seedBox: start.seedBox, score: face.score, keypoints: face.keypoints, roll: start.roll,
            isDiagonal: face.viewDegrees != 0)
    }

    /// Where the 68-point model starts on `face`: its seed box (``LandmarkSeed``), and for a face
    /// found in a turned pass its roll in the image (from the eyes' keypoints), so that the model
    /// reads an upright view of it.
    ///
    /// ``LandmarkSeed`` was fitted on upright faces, so a turned face's keypoints are turned
    /// upright first (by the turn of the pass that found it) with its box's upright width; its
    /// square seed box is the same square in the image, turned back.
    static func landmarkStart(of face: NativeYuNet.Face) -> (seedBox: CGRect, roll: Double?) {
        guard face.searchDegrees != 0 else {
            return (LandmarkSeed.box(yunetBox: face.box, keypoints: face.keypoints), nil)
        }
        // The quarter turns exactly (QuarterTurn), the diagonal view's 45 degrees by cosines.
        let turn = QuarterTurn(face.quarterTurns)
        func upright(_ point: CGPoint) -> CGPoint { turn.point(turnedClockwise(point, degrees: face.viewDegrees)) }
        func back(_ point: CGPoint) -> CGPoint { turnedClockwise(turn.inverse.point(point), degrees: -face.viewDegrees) }
        let width = uprightWidth(of: face)
        let seed = LandmarkSeed.box(
            yunetBox: CGRect(x: 0, y: 0, width: width, height: width), keypoints: face.keypoints.map(upright))
        let centre = back(CGPoint(x: seed.midX, y: seed.midY))
        let seedBox = CGRect(
            x: centre.x - seed.width / 2, y: centre.y - seed.height / 2, width: seed.width, height: seed.height)
        let axis = face.keypoints[1] - face.keypoints[0]
        return (seedBox, atan2(Double(axis.y), Double(axis.x)))
    }

    /// YuNet's own faces, merged over every pass, best first.
    ///
    /// The regular passes search upright. Where they leave room for more, the search goes on:
    /// when they find no face at the minimum score, a close-up pass (if `search` asks) and, for
    /// any orientation, every pass again in the image turned by each quarter turn; when they find
    /// faces but one of them lies beyond ``lyingRoll`` (by its eyes' keypoints), the regular
    /// passes turned; when none scores ``sureUprightScore``, the regular passes of each turn in
    /// which a coarse look (``SearchPlan/probePass(imageWidth:imageHeight:options:)``) shows a
    /// face of its own or scores one of them better. Then, where all that found a face rolled
    /// nearer a diagonal than upright, or faces none of which is sure (``diagonalTurns(for:)``),
    /// the regular passes of the ``DiagonalView`` by the quarter turns that may show them better.
    /// A photo of clearly upright faces, the common case, costs the upright search alone.
    func detections(in image: FaceImage, search: FaceSearch) throws(FaceKitError)
        -> [NativeYuNet.Face]
    {
        try searched(in: image, search: search).map(\.face)
    }

    /// A face the search kept, and for one from the diagonal view, the best detection of the
    /// other passes that it replaced in suppression (``FaceCandidate/displaced``).
    struct Found {
        var face: NativeYuNet.Face
        var displaced: NativeYuNet.Face?
    }

    /// ``detections(in:search:)``, each with the detection it displaced.
    func searched(in image: FaceImage, search: FaceSearch) throws(FaceKitError) -> [Found] {
        let regular = plan.passes(imageWidth: image.width, imageHeight: image.height, options: options)
        let closeUp = search.closeUps ? plan.closeUpPass(imageWidth: image.width, imageHeight: image.height) : nil
        let smallestCloseUp = SearchPlan.closeUpSmallestFace * Double(min(image.width, image.height))
        let minimumScore = minimumScore(for: search)
        var passCount = 0
        /// The faces of one pass (and its mirrored twin) over `searched`, in its pixels; for a
        /// close-up pass, those at least `closeUpSmallest` wide.
        func run(_ pass: SearchPass, turns: Int, over searched: FaceImage, coarsest: Double, closeUpSmallest: Double?)
            throws(FaceKitError) -> [NativeYuNet.Face]
        {
            var pass = pass
            pass.quarterTurns = turns
            passCount += 1
            var faces: [NativeYuNet.Face]
            if plan.mirrored {
                let floor = MirrorFusion.passThreshold(for: minimumScore)
                var twin = pass
                twin.isMirrored = true
                faces = MirrorFusion.fused(
                    try detect(in: searched, pass: pass, minimumScore: floor),
                    try detect(in: searched, pass: twin, minimumScore: floor), minimumScore: minimumScore)
            } else {
                faces = try detect(in: searched, pass: pass, minimumScore: minimumScore)
            }
            // A face too large for this level's share of the pyramid is the coarser level's to
            // find: large non-faces (a dog's head) scored above the threshold only when searched
            // finer than the plan intends. The close-up pass is for large faces only.
            if let closeUpSmallest {
                faces.removeAll { Self.uprightWidth(of: $0) < closeUpSmallest }
            } else if pass.scale > coarsest {
                faces.removeAll { Self.uprightWidth(of: $0) * pass.scale >= plan.largestFaceOfLevel }
            }
            return faces
        }
        let coarsest = regular.map(\.scale).min() ?? 0
        func run(_ pass: SearchPass, turns: Int) throws(FaceKitError) -> [NativeYuNet.Face] {
            try run(
                pass, turns: turns, over: image, coarsest: coarsest,
                closeUpSmallest: pass.region == closeUp?.region ? smallestCloseUp : nil)
        }
        var found: [NativeYuNet.Face] = []
        for pass in regular { found += try run(pass, turns: 0) }
        let confident = found.filter { $0.score >= options.minDetectionScore }
        let farther = confident.isEmpty ? (closeUp.map { [$0] } ?? []) : []
        for pass in farther { found += try run(pass, turns: 0) }
        if search.orientation == .any {
            let lying = found.contains { abs(Self.keypointRoll(of: $0)) > Self.lyingRoll }
            let sure = confident.contains { $0.score >= Self.sureUprightScore }
            let probe = plan.probePass(imageWidth: image.width, imageHeight: image.height, options: options)
            for turns in 1..<4 where lying || !sure {
                // Faces found upright, none surely so: a turn is searched in full only where a
                // coarse look at it shows a face of its own, or one found upright scoring better
                // (a face on its side that YuNet also took for upright).
                if !confident.isEmpty && !lying {
                    let glimpse = try run(probe, turns: turns).filter { face in
                        face.score >= Self.probeScore
                            && !confident.contains {
                                $0.score >= face.score
                                    && BoxOverlap.intersectionOverUnion($0.box, face.box) > Self.maximumOverlap
                            }
                    }
                    guard !glimpse.isEmpty else { continue }
                }
                for pass in regular + farther { found += try run(pass, turns: turns) }
            }
            let diagonal = Self.diagonalTurns(for: found.filter { $0.score >= Self.probeScore })
            if !diagonal.isEmpty {
                // A face the view scores better replaces the other passes' detection of it: a
                // face rolled 45 degrees that the upright search also found is then measured
                // from an upright view (its 68 points, angles and probabilities).
                found += try searchDiagonally(image, turns: diagonal) { (pass, turns, view, coarsest) throws(FaceKitError) in
                    try run(pass, turns: turns, over: view, coarsest: coarsest, closeUpSmallest: nil)
                }
            }
        }
        // Far below the smallest face asked for: specks (a 6 px "face" in a 480 px photo at
        // minFaceSize 0.05), never the faces the search is for.
        let smallestBox = options.smallestFaceBox(imageWidth: image.width) * Self.smallestShareOfMinimum
        found.removeAll { Self.uprightWidth(of: $0) < smallestBox }
        guard passCount > 1 else { return found.map { Found(face: $0) } }
        let kept = NonMaximumSuppression.kept(
            scores: found.map(\.score), boxes: found.map(\.box), maximumOverlap: Self.maximumOverlap)
        let displaced = Self.displaced(in: found, kept: kept)
        let faces = zip(kept, displaced).map { Found(face: found[$0], displaced: $1) }
        guard search.orientation == .any else { return faces }
        return Self.indicesWithoutNestedTurns(faces.map(\.face)).map { faces[$0] }
    }

    /// For each of `kept` (indices into `found`, as ``NonMaximumSuppression`` kept them, best
    /// first) from the diagonal view, the best detection of another pass that it suppressed:
    /// where the diagonal detection's upright look fails, that one is examined as it would have
    /// been without the view (``FaceDetector/examine(_:search:lookingAtAll:)``).
    static func displaced(in found: [NativeYuNet.Face], kept: [Int]) -> [NativeYuNet.Face?] {
        var displaced = [NativeYuNet.Face?](repeating: nil, count: kept.count)
        let isKept = Set(kept)
        for index in found.indices where !isKept.contains(index) && found[index].viewDegrees == 0 {
            // What suppressed it: the first kept (best) detection overlapping it enough.
            guard
                let by = kept.firstIndex(where: {
                    BoxOverlap.intersectionOverUnion(found[$0].box, found[index].box) > maximumOverlap
                }), found[kept[by]].viewDegrees != 0, (displaced[by]?.score ?? -1) < found[index].score
            else { continue }
            displaced[by] = found[index]
        }
        return displaced
    }

    /// The regular passes of `image`'s ``DiagonalView`` by each of `turns`, their faces in the
    /// image's pixels. The view is made at twice the finest scale the search needs (at most full
    /// size), so that each pass only halves it, which YuNet's resize does without aliasing.
    private func searchDiagonally(
        _ image: FaceImage, turns: [Int],
        run: (SearchPass, Int, FaceImage, Double) throws(FaceKitError) -> [NativeYuNet.Face]
    ) throws(FaceKitError) -> [NativeYuNet.Face] {
        let smallestBox = options.smallestFaceBox(imageWidth: image.width)
        let finest = plan.finestScale(width: Double(image.width), height: Double(image.height), smallestBox: smallestBox)
        let view = DiagonalView(imageWidth: image.width, imageHeight: image.height, scale: min(1, 2 * finest))
        let viewImage = try view.image(of: image)
        // The same smallest face, in the view's pixels.
        var viewOptions = options
        viewOptions.minFaceSize = options.minFaceSize * view.scale * Double(image.width) / Double(view.width)
        let passes = plan.passes(imageWidth: view.width, imageHeight: view.height, options: viewOptions)
        let coarsest = passes.map(\.scale).min() ?? 0
        var faces: [NativeYuNet.Face] = []
        for turn in turns {
            for pass in passes { faces += try run(pass, turn, viewImage, coarsest).map(view.imageFace) }
        }
        return faces
    }

    /// The quarter turns of the ``DiagonalView`` to search, given the faces found so far at
    /// ``probeScore`` or more: those that bring upright a face rolled within ``diagonalReach`` of
    /// a diagonal (its neighbours, rolled alike, may have scored too low to be found), and when
    /// no face scores ``sureUprightScore``, the two diagonals either side of the best face's turn:
    /// a face rolled 45 degrees scores low upright, and in a group photo turned 30 degrees small
    /// faces score too low to be found and their keypoints are too coarse to tell their roll.
    /// None for a photo with a sure face, upright or quarter-turned, or with no face at all:
    /// searched in all four turns, a photo without people showed a dog's head as a face.
    static func diagonalTurns(for faces: [NativeYuNet.Face]) -> [Int] {
        guard let best = faces.max(by: { $0.score < $1.score }) else { return [] }
        var turns = Set(faces.compactMap { face -> Int? in
            // The clockwise turn that brings the face upright, from the diagonal view's.
            let fromView = -keypointRoll(of: face) - DiagonalView.degrees
            let offDiagonal = fromView.remainder(dividingBy: 90)
            guard abs(offDiagonal) < diagonalReach else { return nil }
            return QuarterTurn(Int(((fromView - offDiagonal) / 90).rounded())).count
        })
        if best.score < sureUprightScore {
            turns.formUnion([best.quarterTurns, QuarterTurn(best.quarterTurns - 1).count])
        }
        return turns.sorted()
    }

    /// Degrees from a diagonal within which a found face's roll sends the search to the
    /// ``DiagonalView`` (rolls of 15 to 75 degrees off upright): YuNet scores faces rolled about
    /// 45 degrees lowest.
    static let diagonalReach = 30.0

    /// Share of the smaller box inside the larger above which two faces found in differently
    /// turned passes are one: a face seen on its side often shows a smaller "face" inside it
    /// (its nose and mouth, turned), which non-maximum suppression keeps, its union with the real
    /// box being large.
    static let nestedShare = 0.6

    /// The indices of `faces` (best first) but those lying mostly inside a better one found in
    /// another turn.
    static func indicesWithoutNestedTurns(_ faces: [NativeYuNet.Face]) -> [Int] {
        var kept: [Int] = []
        for (index, face) in faces.enumerated() {
            let nested = kept.contains { better in
                guard faces[better].searchDegrees != face.searchDegrees else { return false }
                let shared = faces[better].box.intersection(face.box)
                guard !shared.isNull, !shared.isEmpty else { return false }
                return shared.area >= nestedShare * min(faces[better].box.area, face.box.area)
            }
            if !nested { kept.append(index) }
        }
        return kept
    }

    /// The score at which a coarse look at a turned image (``SearchPlan/probePass(imageWidth:imageHeight:options:)``)
    /// shows a face worth searching that turn for in full.
    static let probeScore = 0.5

    /// The score above which the upright search has surely seen a face upright, and the photo
    /// needs no turned search: YuNet scores an upright face it sees clearly above 0.9, and a face
    /// turned over that it takes for upright (a head on its side, upside down) at 0.8 to 0.9.
    static let sureUprightScore = 0.9

    /// Roll, in degrees, beyond which a face the upright search found is taken as lying (its
    /// neighbours may be lying too, where the upright search sees nothing): YuNet, trained on
    /// upright faces, finds faces up to about this far rolled.
    static let lyingRoll = 45.0

    /// The angle of a face's eye line by YuNet's keypoints, in degrees, clockwise on screen; in
    /// the image's frame, whatever pass found it.
    static func keypointRoll(of face: NativeYuNet.Face) -> Double {
        let axis = face.keypoints[1] - face.keypoints[0]
        return atan2(Double(axis.y), Double(axis.x)) * 180 / .pi
    }

    /// The width of a face's box as the face stands upright (a quarter-turned face's box is
    /// taller in the image than it is wide).
    static func uprightWidth(of face: NativeYuNet.Face) -> Double {
        Double(face.quarterTurns % 2 == 0 ? face.box.width : face.box.height)
    }

    /// Side, in network pixels, of the upright view ``uprightScore(in:seedBox:roll:)`` reads.
    static let uprightViewSide = 160
    /// The upright view spans this many seed-box sides: the face about 80 network pixels wide,
    /// in the middle of YuNet's range, with its surroundings.
    static let uprightViewSpan = 2.5

    /// YuNet's score for the face at `seedBox` seen upright: the face turned by `roll` (its eye
    /// line's angle in the image, radians, clockwise on screen) into a small square view of it,
    /// searched once. A face found rolled, or in a turned pass, scores there as an upright one;
    /// a false detection, which has no upright face to show, stays low. 0 when the view shows no
    /// face near its middle.
    func uprightScore(in image: FaceImage, seedBox: CGRect, roll: Double) throws(FaceKitError) -> Double? {
        let view = try Self.uprightView(of: image, seedBox: seedBox, roll: roll)
        let size = Double(Self.uprightViewSide)
        let pass = SearchPass(region: CGRect(x: 0, y: 0, width: size, height: size), scale: 1, isMirrored: false)
        let faces = try network.withLock { (network) throws(FaceKitError) -> [NativeYuNet.Face] in
            try network.detect(in: view, pass: pass, minimumScore: 0.05, maximumOverlap: Self.maximumOverlap)
        }
        // The face the view was made for: centred, about its expected size.
        let (half, expected) = (size / 2, size / Self.uprightViewSpan)
        return faces.filter { face in
            hypot(Double(face.box.midX) - half, Double(face.box.midY) - half) < 0.3 * expected
                && (0.5 * expected...2.5 * expected).contains(Double(face.box.width))
        }.map(\.score).max() ?? 0
    }

    /// The square view ``uprightScore(in:seedBox:roll:)`` reads: the face at `seedBox` turned by `roll` (radians,
    /// clockwise on screen) upright, `span` seed-box sides in `side` pixels, grey around the image
    /// (``CNNFaceCheck`` makes a larger one).
    static func uprightView(
        of image: FaceImage, seedBox: CGRect, roll: Double, span: Double = uprightViewSpan, side: Int = uprightViewSide
    ) throws(FaceKitError) -> FaceImage {
        let size = Double(side)
        let step = span * Double(max(seedBox.width, seedBox.height)) / size
        let (c, s) = (cos(roll) * step, sin(roll) * step)
        let half = size / 2
        let (cx, cy) = (Double(seedBox.midX), Double(seedBox.midY))
        // image = centre + step R (view - half), R = [cos -sin; sin cos].
        return try image.warped(
            affine: [c, -s, cx - c * half + s * half, s, c, cy - s * half - c * half], width: side, height: side,
            border: 128)
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
