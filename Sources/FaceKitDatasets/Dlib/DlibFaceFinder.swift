import Foundation

@_spi(Evaluation) import FaceKit

/// dlib's detectors as FaceKit used them before YuNet, kept to measure YuNet against
/// (`facekit-evaluate --detector dlib`): the HOG detector alone in fast mode, merged with the
/// MMOD CNN in accurate mode (``DetectionMerge``), searched at ``DlibSearchScale``.
final class DlibFaceFinder: FaceFinder {
    private let hog: NativeDlibDetector
    private let cnn: NativeDlibDetector?
    private let minFaceSize: Double

    init(options: FaceDetectorOptions, models: ModelLocator) throws(FaceKitError) {
        hog = try NativeDlibDetector(kind: .hog, modelPath: nil)
        switch options.performanceMode {
        case .fast: cnn = nil
        case .accurate: cnn = try NativeDlibDetector(kind: .cnn, modelPath: models.path(for: .cnnFaceDetector))
        }
        minFaceSize = options.minFaceSize
    }

    func candidates(in image: FaceImage) throws(FaceKitError) -> [FaceCandidate] {
        let scale = DlibSearchScale.scale(imageWidth: image.width, imageHeight: image.height, minFaceSize: minFaceSize)
        var detections = try hog.detect(in: image, scale: scale)
        if let cnn { detections = DetectionMerge.merged(cnn: try cnn.detect(in: image, scale: scale), hog: detections) }
        return detections.map { FaceCandidate(frame: $0.box, seedBox: $0.box, score: $0.score) }
    }
}
