import Foundation

/// Finds faces in images and analyses them, like ML Kit's `FaceDetector`.
///
/// Models are loaded once, at initialisation; ``process(_:)`` then costs only the analysis.
/// Fast mode detects with dlib's HOG detector; accurate mode adds dlib's MMOD CNN and merges the
/// two (``DetectionMerge``). Every face
/// gets its head pose from dlib's 68 landmarks fitted to a 3D mean face; landmarks, contours and
/// probabilities follow the options.
///
/// A detector is not thread-safe (dlib's detectors keep scratch state): use one per thread,
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
public final class FaceDetector {
    public let options: FaceDetectorOptions
    /// dlib's HOG detector: fast mode's only detector, accurate mode's second (``DetectionMerge``).
    private let hog: NativeDetector
    /// dlib's MMOD CNN, in accurate mode.
    private let cnn: NativeDetector?
    /// dlib's 68-point model: read-only while predicting, so shared by ``init(sharingModelsWith:)``.
    private let shapePredictor: NativeShapePredictor
    private let models: ModelLocator

    /// Validates `options` and loads the models they need from `models`.
    public convenience init(options: FaceDetectorOptions = FaceDetectorOptions(), models: ModelLocator = ModelLocator())
        throws(FaceKitError)
    {
        try options.validate()
        let shapePredictor = try NativeShapePredictor(modelPath: models.path(for: .landmarks68))
        guard shapePredictor.pointCount == FaceShape.pointCount else {
            throw .modelUnavailable(
                name: ModelLocator.Model.landmarks68.rawValue,
                reason: "the model places \(shapePredictor.pointCount) points, not \(FaceShape.pointCount)")
        }
        try self.init(options: options, models: models, shapePredictor: shapePredictor)
    }

    /// A detector for another thread, with `other`'s options, sharing its landmark model.
    ///
    /// dlib's shape predictor is only read while it predicts, so threads may share it, and the
    /// 68-point model (about 100 MB in memory, the slowest to load) is loaded once however many
    /// workers there are. The face detectors, which keep scratch state, are the new one's own.
    ///
    /// ```swift
    /// let first = try FaceDetector(options: options)
    /// let second = try FaceDetector(sharingModelsWith: first)   // for a second worker thread
    /// ```
    public convenience init(sharingModelsWith other: FaceDetector) throws(FaceKitError) {
        try self.init(options: other.options, models: other.models, shapePredictor: other.shapePredictor)
    }

    private init(options: FaceDetectorOptions, models: ModelLocator, shapePredictor: NativeShapePredictor)
        throws(FaceKitError)
    {
        self.options = options
        self.models = models
        self.shapePredictor = shapePredictor
        hog = try NativeDetector(kind: .hog, modelPath: nil)
        switch options.performanceMode {
        case .fast: cnn = nil
        case .accurate: cnn = try NativeDetector(kind: .cnn, modelPath: models.path(for: .cnnFaceDetector))
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
    /// smallest face `minFaceSize` asks for stays at least twice the detectors' 80 px window wide,
    /// so that it is still found and its landmarks still have pixels to work with. At the default
    /// minFaceSize 0.1 that is at least 2000 px wide: a 48-megapixel photo (8000 px) decodes at
    /// 1/4, a 12-megapixel one (4032 px) at 1/2. Other formats decode at full size.
    ///
    /// ```swift
    /// let faces = try detector.process(contentsOfFile: "IMG_0042.jpg")
    /// ```
    public func process(contentsOfFile path: String, maxPixels: Int = FaceImage.defaultMaxPixels)
        throws(FaceKitError) -> [Face]
    {
        try process(FaceImage(contentsOfFile: path, maxPixels: maxPixels, minimumWidth: minimumDecodeWidth))
    }

    /// The narrowest decode that keeps the smallest wanted face box twice the detector's window:
    /// minFaceSize x width x boxWidthPerHeadWidth >= 2 x detectorWindow.
    var minimumDecodeWidth: Int {
        let width = 2 * SearchScale.detectorWindow / (SearchScale.boxWidthPerHeadWidth * options.minFaceSize)
        return Int(width.rounded(.up))
    }

    /// The faces in `image` with the 68 points each was built from, for training tools that
    /// must measure features exactly as analysis does.
    ///
    /// Detection and landmarks run on the image as decoded; boxes and points are then taken to
    /// full-size coordinates (a no-op unless the image was decoded reduced), before anything is
    /// built from them.
    @_spi(Training) public func analyse(_ image: FaceImage) throws(FaceKitError) -> [(face: Face, shape: FaceShape)] {
        var faces: [Face] = []
        var shapes: [FaceShape] = []
        let scale = searchScale(for: image)
        var detections = try hog.detect(in: image, scale: scale)
        if let cnn { detections = DetectionMerge.merged(cnn: try cnn.detect(in: image, scale: scale), hog: detections) }
        for var detection in detections {
            let points = try shapePredictor.points(in: image, box: detection.box)
            let shape = FaceShape(points: points.map(image.fullSizePoint))
            detection.box = image.fullSizeBox(detection.box)
            shapes.append(shape)
            faces.append(face(from: detection, shape: shape, image: image))
        }
        var order = Array(faces.indices)
        order.sort { (faces[$0].frame.minX, faces[$0].frame.minY) < (faces[$1].frame.minX, faces[$1].frame.minY) }
        faces = order.map { faces[$0] }
        shapes = order.map { shapes[$0] }
        if options.contourMode == .all, let prominent = faces.indices.max(by: { faces[$0].frame.area < faces[$1].frame.area }) {
            faces[prominent].contours = ContourConstruction.contours(from: shapes[prominent])
        }
        return Array(zip(faces, shapes))
    }

    /// The boxes of the mode's own detector (HOG in fast mode, the CNN in accurate mode) before
    /// any mapping or merging. For calibration: `facekit-train cnn-box-mapping` fits
    /// ``CNNBoxMapping`` on them.
    @_spi(Calibration) public func detectorBoxes(in image: FaceImage) throws(FaceKitError) -> [CGRect] {
        try (cnn ?? hog).detect(in: image, scale: searchScale(for: image)).map { image.fullSizeBox($0.box) }
    }

    /// The scale for the image as decoded: minFaceSize is a fraction of the width, so a reduced
    /// decode needs no correction.
    private func searchScale(for image: FaceImage) -> Double {
        SearchScale.scale(imageWidth: image.width, imageHeight: image.height, minFaceSize: options.minFaceSize)
    }

    private func face(from detection: NativeDetector.Detection, shape: FaceShape, image: FaceImage) -> Face {
        let angles = headEulerAngles(of: shape, image: image)
        var face = Face(
            frame: detection.box, headEulerAngleX: angles.x, headEulerAngleY: angles.y,
            headEulerAngleZ: angles.z, detectionScore: detection.score)
        if options.landmarkMode == .all {
            face.landmarks = LandmarkConstruction.landmarks(from: shape, yawDegrees: angles.y)
        }
        if options.classificationMode == .all {
            FaceClassifier.classify(&face, shape: shape)
        } else {
            FaceClassifier.markAbsent(&face, Face.Probability.allCases, .notRequested)
        }
        return face
    }

    private func headEulerAngles(of shape: FaceShape, image: FaceImage) -> HeadEulerAngles {
        let model = MeanFace.points
        let rotation = NativePose.rotation(
            model: model.map { ($0.x, $0.y, $0.z) }, imagePoints: model.map { shape.points[$0.dlibIndex] },
            imageWidth: image.fullSize.width, imageHeight: image.fullSize.height)
        return rotation.map(HeadEulerAngles.from(rotation:)) ?? HeadEulerAngles(x: 0, y: 0, z: 0)
    }
}
