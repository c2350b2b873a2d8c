import Foundation
import Synchronization

/// Finds faces in images and analyses them, like ML Kit's `FaceDetector`.
///
/// Models are loaded once, at initialisation; ``process(_:)-4y4vc`` then costs only the analysis.
/// Faces are found by YuNet (a small convolutional network, run by FaceKit's own network runner
/// in the native shim) at the scale minFaceSize allows (`SearchPlan`); accurate mode searches
/// finer and mirrored as well. Every face then gets dlib's 68 landmarks, started from a box
/// mapped from YuNet's (`LandmarkSeed`), and its head pose from those points fitted to a 3D mean
/// face; landmarks, contours and probabilities follow the options.
///
/// A detector may be shared between threads, but its face-finding network keeps its activations,
/// so calls on one detector take turns there: for work in parallel, give each thread its own,
/// made with ``init(sharingModelsWith:)`` so that the landmark model is loaded once.
///
/// ```swift
/// var options = FaceDetectorOptions()
/// options.landmarkMode = .all
/// let detector = try FaceDetector(options: options)
/// let faces = try detector.process(FaceImage(contentsOfFile: "obama.jpg"))
/// faces.count                                   // 1
/// faces[0].landmark(ofType: .noseBase)?.position // (483.0, 318.0)
/// ```
public final class FaceDetector: Sendable {
    /// Makes the face finder of a detector with these options: YuNet's, or for measurements
    /// another (see ``init(options:models:finder:)``).
    package typealias FinderFactory = @Sendable (FaceDetectorOptions, ModelLocator) throws(
        FaceKitError
    ) -> any FaceFinder

    public let options: FaceDetectorOptions
    private let finder: any FaceFinder
    /// How ``finder`` was made, to make another for ``init(options:sharingModelsWith:)``.
    private let makeFinder: FinderFactory
    /// dlib's 68-point model: read-only while predicting, so shared by ``init(sharingModelsWith:)``.
    private let shapePredictor: NativeShapePredictor
    private let models: ModelLocator
    /// dlib's face descriptor network, with descriptorMode `.all`: it keeps its activations, so
    /// one face at a time; each detector (each worker) has its own.
    private let descriptorNetwork: Mutex<NativeFaceDescriptor?>
    /// The third look at a face both YuNet looks doubt (dlib's CNN), for photos: `nil` with
    /// tracking, whose search takes no second look. Each detector has its own.
    private let faceCheck: CNNFaceCheck?
    /// The eye-state and smile networks, with classificationMode `.all`; each detector has its own.
    private let eyeState: EyeStateModel?
    private let smile: SmileModel?

    /// Validates `options` and loads the models they need from `models`.
    public convenience init(options: FaceDetectorOptions = FaceDetectorOptions(), models: ModelLocator = ModelLocator())
        throws(FaceKitError)
    {
        try self.init(options: options, models: models, finder: Self.yunetFinder(plan: nil))
    }

    /// A detector whose faces are found by what `finder` makes rather than by YuNet, everything
    /// after detection (landmarks, pose, classification) unchanged: for measuring detectors
    /// against each other (facekit-evaluate's dlib rows, FaceKitDatasets' `DlibFaceFinder`), and
    /// for YuNet searching by another plan (FaceKitDatasets' `init(options:models:plan:)`).
    package convenience init(
        options: FaceDetectorOptions, models: ModelLocator, finder: @escaping FinderFactory
    ) throws(FaceKitError) {
        try options.validate()
        let landmarksPath = try models.path(for: .landmarks68)
        let shapePredictor = try NativeShapePredictor(modelPath: landmarksPath, cacheFolder: models.cache.madeFolder())
        guard shapePredictor.pointCount == FaceShape.pointCount else {
            throw .modelUnavailable(
                name: ModelLocator.Model.landmarks68.rawValue,
                reason: "the model places \(shapePredictor.pointCount) points, not \(FaceShape.pointCount)")
        }
        try self.init(options: options, models: models, shapePredictor: shapePredictor, makeFinder: finder)
    }

    /// A detector for another thread, with `other`'s options, sharing its landmark model.
    ///
    /// dlib's shape predictor is only read while it predicts, so threads may share it, and the
    /// 68-point model (about 100 MB in memory, the slowest to load) is loaded once however many
    /// workers there are. The face detector, which keeps scratch state, is the new one's own.
    ///
    /// ```swift
    /// let first = try FaceDetector(options: options)
    /// let second = try FaceDetector(sharingModelsWith: first)   // for a second worker thread
    /// ```
    public convenience init(sharingModelsWith other: FaceDetector) throws(FaceKitError) {
        try self.init(options: other.options, sharingModelsWith: other)
    }

    /// A detector with other `options` that shares `other`'s landmark model: for a program that
    /// analyses photos and tracks video with one model in memory.
    ///
    /// ```swift
    /// var videoOptions = photos.options
    /// videoOptions.isTrackingEnabled = true
    /// let tracker = try FaceTracker(detector: FaceDetector(options: videoOptions, sharingModelsWith: photos))
    /// ```
    public convenience init(options: FaceDetectorOptions, sharingModelsWith other: FaceDetector) throws(FaceKitError) {
        try options.validate()
        try self.init(
            options: options, models: other.models, shapePredictor: other.shapePredictor, makeFinder: other.makeFinder)
    }

    private init(
        options: FaceDetectorOptions, models: ModelLocator, shapePredictor: NativeShapePredictor,
        makeFinder: @escaping FinderFactory
    ) throws(FaceKitError) {
        self.options = options
        self.models = models
        self.shapePredictor = shapePredictor
        self.makeFinder = makeFinder
        finder = try makeFinder(options, models)
        faceCheck = options.isTrackingEnabled ? nil : try CNNFaceCheck(modelPath: models.path(for: .cnnFaceDetector))
        descriptorNetwork = Mutex(
            options.descriptorMode == .all ? try NativeFaceDescriptor(modelPath: models.path(for: .faceDescriptor)) : nil)
        eyeState = options.classificationMode == .all ? try EyeStateModel(modelPath: models.path(for: .eyeState)) : nil
        smile = options.classificationMode == .all ? try SmileModel(modelPath: models.path(for: .smile)) : nil
    }

    /// Makes YuNet's finder, searching as `plan` says, or as the performance mode does when `nil`.
    package static func yunetFinder(plan: SearchPlan?) -> FinderFactory {
        { (options, models) throws(FaceKitError) in
            YuNetFaceFinder(
                network: try NativeYuNet(modelPath: models.path(for: .faceDetector)),
                plan: plan ?? searchPlan(for: options.performanceMode), options: options)
        }
    }

    /// How each performance mode searches (chosen in docs/accuracy.md, "Choosing the search").
    static func searchPlan(for mode: FaceDetectorOptions.PerformanceMode) -> SearchPlan {
        switch mode {
        case .fast: SearchPlan(smallestFace: 24, mirrored: false)
        case .accurate: SearchPlan(smallestFace: 40, mirrored: true)
        }
    }

    /// The faces in `image`, ordered left to right (then top to bottom).
    public func process(_ image: FaceImage) throws(FaceKitError) -> [Face] {
        try analyse(image).map(\.face)
    }

    /// The faces in the image file at `path`, decoded no larger than these options need.
    ///
    /// The same faces as `process(FaceImage(contentsOfFile: path, maxPixels: maxPixels))`, in the
    /// same full-size coordinates, but a large JPEG is decoded at 1/2, 1/4 or 1/8 of its size
    /// (libjpeg scales while decoding: faster, and a fraction of the memory) as long as the
    /// smallest face `minFaceSize` asks for stays at least `smallestDecodedFace` (160) pixels wide,
    /// so that its landmarks still have pixels to work with. At the default minFaceSize 0.1 that
    /// is at least 2000 px wide: a 48-megapixel photo (8000 px) decodes at 1/4, a 12-megapixel
    /// one (4032 px) at 1/2. Other formats decode at full size.
    ///
    /// ```swift
    /// let faces = try detector.process(contentsOfFile: "IMG_0042.jpg")
    /// ```
    public func process(contentsOfFile path: String, maxPixels: Int = FaceImage.defaultMaxPixels)
        throws(FaceKitError) -> [Face]
    {
        try process(decodedImage(contentsOfFile: path, maxPixels: maxPixels))
    }

    /// Width in pixels of the smallest wanted face box after a reduced decode: twice the 80 px
    /// that dlib's 68-point model was trained on, so that reduced decoding moves landmarks by
    /// under 1% of the face (docs/benchmarks.md).
    static let smallestDecodedFace = 160.0

    /// The narrowest decode that keeps the smallest wanted face box ``smallestDecodedFace`` wide;
    /// 0 (no reduction) when minFaceSize is so small that no reduction would do.
    var minimumDecodeWidth: Int {
        let width = options.imageWidth(whereSmallestFaceBoxIs: Self.smallestDecodedFace)
        // Beyond Int32's range no image is that wide: never reduce. (Also catches infinity.)
        guard width.isFinite, width < Double(Int32.max) else { return 0 }
        return Int(width.rounded(.up))
    }

    /// The faces in `image` with the 68 points each was built from: what ``process(_:)`` reports,
    /// and what training tools measure features on, exactly as analysis does.
    ///
    /// Detection and landmarks run on the image as decoded; boxes and points are then taken to
    /// full-size coordinates (a no-op unless the image was decoded reduced), before anything is
    /// built from them.
    /// `search` replaces the options' own for the tools' measurements (the search before
    /// close-ups and turned passes existed).
    package func analyse(_ image: FaceImage, search: FaceSearch? = nil) throws(FaceKitError)
        -> [(face: Face, shape: FaceShape)]
    {
        try examine(image, search: search).map { ($0.face, $0.shape) }
    }

    /// ``analyse(_:search:)``'s faces with the search's own score of each and its score seen
    /// upright (``FaceFinder/uprightScore(in:seedBox:roll:)``): the second look a search takes at
    /// faces below the minimum score; `nil` where none was taken. A face both looks leave under
    /// the minimum gets a third, dlib's CNN (``CNNFaceCheck``), and is kept when that finds it.
    /// With `lookingAtAll` (for the tools' measurements) every face the search keeps for a second
    /// look is returned, looked at upright and by the CNN, whatever its scores.
    ///
    /// A face's ``Face/detectionScore`` is the search's score, or for a face the search scored
    /// below the minimum, the better of it and its score seen upright (under the minimum for a
    /// face only the CNN kept). A face whose detection came from the diagonal view
    /// (``FaceCandidate/isDiagonal``) is always looked at upright and kept on that look; when
    /// that look does not keep it, the detection it displaced (``FaceCandidate/displaced``) is
    /// examined in its stead, and when neither is kept, the CNN looks at the diagonal one.
    package func examine(_ image: FaceImage, search: FaceSearch? = nil, lookingAtAll: Bool = false)
        throws(FaceKitError) -> [Examined]
    {
        let search = search ?? FaceSearch(options: options)
        let minimum = options.minDetectionScore
        let candidates = try candidates(in: image, search: search)
        let shapes = try shapes(in: image, seedBoxes: candidates.map(\.seedBox), rolls: candidates.map(\.roll))
        /// Whether `candidate` is kept, its score, and its upright look's if taken.
        func look(at candidate: FaceCandidate, shape: FaceShape) throws(FaceKitError)
            -> (kept: Bool, score: Double, upright: Double?)
        {
            var upright: Double?
            let looks = candidate.score < minimum || candidate.isDiagonal
            if lookingAtAll || (search.secondLook && looks), let axis = shape.eyeAxis {
                upright = try finder.uprightScore(in: image, seedBox: candidate.seedBox, roll: atan2(Double(axis.y), Double(axis.x)))
            }
            let kept = candidate.isDiagonal ? (upright ?? 0) >= minimum : max(candidate.score, upright ?? 0) >= minimum
            return (kept, candidate.score >= minimum ? candidate.score : max(candidate.score, upright ?? 0), upright)
        }
        var analysed: [Examined] = []
        for (candidate, shape) in zip(candidates, shapes) {
            var (found, shape) = (candidate, shape)
            var seen = try look(at: candidate, shape: shape)
            var displacedScore: Double?
            // A diagonal detection its look does not keep gives way to the one it displaced,
            // examined as without the view (a closed-eyed face rolled 30 degrees, scored 0.87
            // there, may not pass its upright look where the upright search's 0.7 does).
            if let displaced = candidate.displaced.first, lookingAtAll || !seen.kept {
                let displacedShape = try self.shapes(in: image, seedBoxes: [displaced.seedBox], rolls: [displaced.roll])[0]
                let other = try look(at: displaced, shape: displacedShape)
                displacedScore = max(other.score, other.upright ?? 0)
                if !lookingAtAll && other.kept { (found, shape, seen) = (displaced, displacedShape, other) }
            }
            // The third look, where YuNet's second was taken (photos) and neither kept the face.
            var checkConfidence: Double?
            if let upright = seen.upright, lookingAtAll || !seen.kept, let faceCheck, let axis = shape.eyeAxis,
                (candidate.isDiagonal ? max(upright, displacedScore ?? 0) : max(candidate.score, upright))
                    >= CNNFaceCheck.minimumYuNetScore
            {
                let roll = atan2(Double(axis.y), Double(axis.x))
                let checked = try faceCheck.confidence(
                    in: image, seedBox: candidate.seedBox, roll: roll, turning: candidate.roll != nil)
                checkConfidence = checked.confidence
                if !seen.kept, checked.confidence >= CNNFaceCheck.minimumConfidence {
                    seen.kept = true
                    // Seen the right way up a quarter turn or more from where its points said:
                    // they are placed again from there.
                    if checked.roll != roll {
                        shape = try self.shapes(in: image, seedBoxes: [candidate.seedBox], rolls: [checked.roll])[0]
                    }
                }
            }
            guard seen.kept || lookingAtAll else { continue }
            let face = try face(
                frame: image.fullSizeBox(found.frame), shape: shape, classifiedAs: shape, detectionScore: seen.score,
                image: image)
            analysed.append(
                (face, shape, found.score, seen.upright, found.roll != nil, found.isDiagonal, displacedScore,
                 checkConfidence, found.keypoints.map(image.fullSizePoint), found.seedBox))
        }
        analysed.sort { ($0.face.frame.minX, $0.face.frame.minY) < ($1.face.frame.minX, $1.face.frame.minY) }
        if options.contourMode == .all,
            let prominent = analysed.indices.max(by: { analysed[$0].face.frame.area < analysed[$1].face.frame.area })
        {
            let frame = analysed[prominent].face.frame
            analysed[prominent].face.contours = ContourConstruction.contours(from: analysed[prominent].shape).filter {
                $0.points.allSatisfy { Self.isInPicture($0, frame: frame, imageSize: image.fullSize) }
            }
        }
        return analysed
    }

    /// A face ``examine(_:search:lookingAtAll:)`` found: its shape, the search's score, the upright
    /// look's (if taken), whether a turned pass found it, whether its detection came from the
    /// diagonal view, and with `lookingAtAll`, for such a detection, the best score (the search's
    /// or the upright look's) of the detection it displaced (``FaceCandidate/displaced``); the
    /// CNN's confidence (``CNNFaceCheck/confidence(in:seedBox:roll:)``) where it looked; and,
    /// for measuring other checks, the detector's five keypoints (``FaceCandidate/keypoints``) in
    /// full-size coordinates and its seed box in the pixels of the image as decoded.
    package typealias Examined = (
        face: Face, shape: FaceShape, searchScore: Double, uprightScore: Double?, turned: Bool, diagonal: Bool,
        displacedScore: Double?, checkConfidence: Double?, keypoints: [CGPoint], seedBox: CGRect
    )

    /// YuNet's own detections (box, keypoints, score), merged over the search's passes, in
    /// pixels of the image as decoded: what ``LandmarkSeed`` is fitted on. Empty for dlib's
    /// detectors, whose boxes are the seed boxes.
    package func detectorOutput(in image: FaceImage) throws(FaceKitError)
        -> [(box: CGRect, keypoints: [CGPoint], score: Double)]
    {
        guard let yunet = finder as? YuNetFaceFinder else { return [] }
        return try yunet.detections(in: image, search: .video).map { ($0.box, $0.keypoints, $0.score) }
    }

    /// The faces the detector finds in `image` as `search` says, before landmarks, best first.
    func candidates(in image: FaceImage, search: FaceSearch) throws(FaceKitError)
        -> [FaceCandidate]
    {
        try finder.candidates(in: image, search: search)
    }

    /// The 68 points of each face seeded from `seedBoxes` (in `image`'s pixels), in full-size
    /// image coordinates; several faces are placed in parallel.
    ///
    /// A face with a known roll (`rolls`, from a turned search pass: lying or upside down) is
    /// placed from an upright crop turned by that roll (``UprightSeed``), and again by what its
    /// points then say is left of the roll when that is beyond ``UprightSeed/minimumRoll``. Any
    /// other face whose points come out rolled beyond that is placed again from an upright crop
    /// turned by that roll. The model, trained on upright faces, underestimates a tilt and cannot
    /// read a face on its side.
    package func shapes(in image: FaceImage, seedBoxes: [CGRect], rolls: [Double?]? = nil) throws(FaceKitError)
        -> [FaceShape]
    {
        let rolls = rolls ?? Array(repeating: nil, count: seedBoxes.count)
        precondition(rolls.count == seedBoxes.count, "FaceDetector.shapes: one roll per seed box")
        let upright = seedBoxes.indices.filter { rolls[$0] == nil }
        var points = [[CGPoint]](repeating: [], count: seedBoxes.count)
        for (index, placed) in zip(upright, try shapePredictor.points(in: image, boxes: upright.map { seedBoxes[$0] })) {
            points[index] = placed
        }
        for index in seedBoxes.indices {
            if let roll = rolls[index] {
                var seed = UprightSeed(box: seedBoxes[index], roll: roll)
                var placed = try uprightPoints(in: image, seed: seed)
                if let axis = FaceShape(points: placed).eyeAxis {
                    let measured = atan2(Double(axis.y), Double(axis.x))
                    // What is left of the roll, in -pi ... pi.
                    let rest = UprightSeed(box: seedBoxes[index], roll: remainder(measured - roll, 2 * .pi))
                    if rest.needsTurning {
                        seed.roll = measured
                        placed = try uprightPoints(in: image, seed: seed)
                    }
                }
                points[index] = placed
            } else {
                guard let axis = FaceShape(points: points[index]).eyeAxis else { continue }
                let seed = UprightSeed(box: seedBoxes[index], roll: atan2(Double(axis.y), Double(axis.x)))
                guard seed.needsTurning else { continue }
                points[index] = try uprightPoints(in: image, seed: seed)
            }
        }
        return points.map { FaceShape(points: $0.map(image.fullSizePoint)) }
    }

    /// The 68 points placed in `seed`'s upright crop, in `image`'s pixels.
    private func uprightPoints(in image: FaceImage, seed: UprightSeed) throws(FaceKitError) -> [CGPoint] {
        try shapePredictor.points(in: seed.crop(of: image), boxes: [seed.boxInCrop])[0].map(seed.imagePoint)
    }

    /// A face with its box, pose, landmarks and probabilities as the options ask: the geometry
    /// from `shape`, the probabilities from `classifiedAs` (the same shape in stills; in video
    /// the smoothed shape gives the geometry, the measured one the probabilities).
    func face(
        frame: CGRect, shape: FaceShape, classifiedAs measured: FaceShape, detectionScore: Double, image: FaceImage
    ) throws(FaceKitError) -> Face {
        let angles = headEulerAngles(of: shape, imageSize: image.fullSize)
        var face = Face(
            frame: frame, headEulerAngleX: angles.x, headEulerAngleY: angles.y, headEulerAngleZ: angles.z,
            detectionScore: detectionScore)
        face.points68 = shape.points.map { Self.isInPicture($0, frame: frame, imageSize: image.fullSize) ? $0 : nil }
        if options.landmarkMode == .all {
            face.landmarks = LandmarkConstruction.landmarks(from: shape, yawDegrees: angles.y).filter {
                Self.isInPicture($0.position, frame: frame, imageSize: image.fullSize)
            }
        }
        if let eyeState, let smile {
            try FaceClassifier.classify(&face, shape: measured, image: image, eyeState: eyeState, smile: smile)
        } else {
            FaceClassifier.markAbsent(&face, Face.Probability.allCases, .notRequested)
        }
        if options.descriptorMode == .all {
            if measured.isPlausible {
                // The network reads the image as decoded (perhaps reduced).
                let decoded = FaceShape(points: measured.points.map(image.decodedPoint))
                let values = try descriptorNetwork.withLock { network throws(FaceKitError) in
                    try network!.descriptor(in: image, shape: decoded)
                }
                face.descriptor = FaceDescriptor(values: values)
            } else {
                face.descriptorAbsenceReason = .landmarksImplausible
            }
        } else {
            face.descriptorAbsenceReason = .notRequested
        }
        face.quality = try FaceQuality.quality(of: face, in: image)
        return face
    }

    /// Share of a face's box size from an edge that cuts the face within which its points are
    /// not taken as seen: where the frame cuts a face, the 68-point model puts what lies beyond
    /// the cut against it (a close-up cut below the nose gets a mouth on its bottom row).
    static let cutEdgeMargin = 0.05

    /// Whether `point` of the face whose box is `frame` is seen in an image of `imageSize`:
    /// inside it, and not against an edge the face's box crosses (``cutEdgeMargin``). A close-up's
    /// face may reach outside the picture, and what lies there is not reported as seen.
    static func isInPicture(_ point: CGPoint, frame: CGRect, imageSize: (width: Int, height: Int)) -> Bool {
        let (width, height) = (Double(imageSize.width), Double(imageSize.height))
        let (x, y) = (Double(point.x), Double(point.y))
        guard x >= 0, y >= 0, x <= width, y <= height else { return false }
        let margin = cutEdgeMargin * Double(max(frame.width, frame.height))
        return !((frame.minX < 0 && x < margin) || (frame.minY < 0 && y < margin)
            || (frame.maxX > width && x > width - margin) || (frame.maxY > height && y > height - margin))
    }

    private func headEulerAngles(of shape: FaceShape, imageSize: (width: Int, height: Int)) -> HeadEulerAngles {
        Self.headEulerAngles(
            of: shape, imageSize: imageSize, model: MeanFace.points,
            focalLengthInImageWidths: MeanFace.focalLengthInImageWidths, levelPitchDegrees: MeanFace.levelPitchDegrees)
    }

    /// Head pose from `model` (the shipped ``MeanFace`` at run time; other models while fitting
    /// it, FaceKitDatasets' `headEulerAngles(of:imageSize:model:...)`), through a camera of the
    /// given focal length, levelled by `levelPitchDegrees`.
    package static func headEulerAngles(
        of shape: FaceShape, imageSize: (width: Int, height: Int), model: [MeanFace.Point],
        focalLengthInImageWidths: Double, levelPitchDegrees: Double
    ) -> HeadEulerAngles {
        let rotation = NativePose.rotation(
            model: model.map { ($0.x, $0.y, $0.z) }, imagePoints: model.map { shape.points[$0.dlibIndex] },
            imageWidth: imageSize.width, imageHeight: imageSize.height,
            focalLength: focalLengthInImageWidths * Double(imageSize.width))
        return rotation.map { HeadEulerAngles.from(rotation: MeanFace.levelled($0, by: levelPitchDegrees)) }
            ?? HeadEulerAngles(x: 0, y: 0, z: 0)
    }
}
