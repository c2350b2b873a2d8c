import Foundation

/// Finds faces in images and analyses them, like ML Kit's `FaceDetector`.
///
/// Models are loaded once, at initialisation; ``process(_:)`` then costs only the analysis.
/// Fast mode detects with dlib's HOG detector, accurate mode with dlib's MMOD CNN. Every face
/// gets its head pose from dlib's 68 landmarks fitted to a 3D mean face; landmarks, contours and
/// probabilities follow the options.
///
/// A detector is not thread-safe (dlib's detectors keep scratch state): use one per thread.
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
    private let detector: NativeDetector
    private let shapePredictor: NativeShapePredictor

    /// Validates `options` and loads the models they need from `models`.
    public init(options: FaceDetectorOptions = FaceDetectorOptions(), models: ModelLocator = ModelLocator())
        throws(FaceKitError)
    {
        try options.validate()
        self.options = options
        switch options.performanceMode {
        case .fast: detector = try NativeDetector(kind: .hog, modelPath: nil)
        case .accurate: detector = try NativeDetector(kind: .cnn, modelPath: models.path(for: .cnnFaceDetector))
        }
        shapePredictor = try NativeShapePredictor(modelPath: models.path(for: .landmarks68))
        guard shapePredictor.pointCount == FaceShape.pointCount else {
            throw .modelUnavailable(
                name: ModelLocator.Model.landmarks68.rawValue,
                reason: "the model places \(shapePredictor.pointCount) points, not \(FaceShape.pointCount)")
        }
    }

    /// The faces in `image`, ordered left to right (then top to bottom).
    public func process(_ image: FaceImage) throws(FaceKitError) -> [Face] {
        var faces: [Face] = []
        var shapes: [FaceShape] = []
        for var detection in try rawDetections(in: image) {
            if detector.kind == .cnn { detection.box = CNNBoxMapping.hogStyle(detection.box) }
            let shape = FaceShape(points: try shapePredictor.points(in: image, box: detection.box))
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
        return faces
    }

    /// The detector's own boxes, before any mapping, searched at the scale minFaceSize allows.
    /// For calibration tools: `facekit-evaluate fit-cnn-boxes` fits ``CNNBoxMapping`` on them.
    @_spi(Calibration) public func detectorBoxes(in image: FaceImage) throws(FaceKitError) -> [CGRect] {
        try rawDetections(in: image).map(\.box)
    }

    private func rawDetections(in image: FaceImage) throws(FaceKitError) -> [NativeDetector.Detection] {
        let scale = SearchScale.scale(
            imageWidth: image.width, imageHeight: image.height, minFaceSize: options.minFaceSize)
        return try detector.detect(in: image, scale: scale)
    }

    private func face(from detection: NativeDetector.Detection, shape: FaceShape, image: FaceImage) -> Face {
        let angles = headEulerAngles(of: shape, image: image)
        var face = Face(
            frame: detection.box, headEulerAngleX: angles.x, headEulerAngleY: angles.y,
            headEulerAngleZ: angles.z, detectionScore: detection.score)
        if options.landmarkMode == .all {
            face.landmarks = LandmarkConstruction.landmarks(from: shape, yawDegrees: angles.y)
        }
        let reason: Face.AbsenceReason = options.classificationMode == .all ? .classifierUnavailable : .notRequested
        for kind in Face.Probability.allCases { face.absenceReasons[kind] = reason }
        return face
    }

    private func headEulerAngles(of shape: FaceShape, image: FaceImage) -> HeadEulerAngles {
        let model = MeanFace.points
        let rotation = NativePose.rotation(
            model: model.map { ($0.x, $0.y, $0.z) }, imagePoints: model.map { shape.points[$0.dlibIndex] },
            imageWidth: image.width, imageHeight: image.height)
        return rotation.map(HeadEulerAngles.from(rotation:)) ?? HeadEulerAngles(x: 0, y: 0, z: 0)
    }
}

extension CGRect {
    var area: Double { Double(width * height) }
}
