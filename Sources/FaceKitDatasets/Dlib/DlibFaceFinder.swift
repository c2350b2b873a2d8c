import Foundation
import Synchronization

import FaceKit

/// dlib's detectors as FaceKit used them before YuNet, kept to measure YuNet against
/// (`facekit-evaluate --detector dlib`): the HOG detector alone in fast mode, merged with the
/// MMOD CNN in accurate mode (``DetectionMerge``), searched at ``DlibSearchScale``.
final class DlibFaceFinder: FaceFinder {
    /// dlib's detectors are not const while detecting, so one search runs at a time.
    private let detectors: Mutex<(hog: NativeDlibDetector, cnn: NativeDlibDetector?)>
    private let options: FaceDetectorOptions

    init(options: FaceDetectorOptions, models: ModelLocator) throws(FaceKitError) {
        let hog = try NativeDlibDetector(kind: .hog, modelPath: nil)
        let cnn: NativeDlibDetector? =
            switch options.performanceMode {
            case .fast: nil
            case .accurate: try NativeDlibDetector(kind: .cnn, modelPath: models.path(for: .cnnFaceDetector))
            }
        detectors = Mutex((hog, cnn))
        self.options = options
    }

    /// Upright faces only, whatever `search` asks: dlib's detectors have no turned or close-up
    /// search.
    func candidates(in image: FaceImage, search: FaceSearch) throws(FaceKitError)
        -> [FaceCandidate]
    {
        let scale = DlibSearchScale.scale(imageWidth: image.width, imageHeight: image.height, options: options)
        let detections = try detectors.withLock {
            (detectors) throws(FaceKitError) -> [NativeDlibDetector.Detection] in
            let hog = try detectors.hog.detect(in: image, scale: scale)
            guard let cnn = detectors.cnn else { return hog }
            return DetectionMerge.merged(cnn: try cnn.detect(in: image, scale: scale), hog: hog)
        }
        return detections.map { FaceCandidate(frame: $0.box, seedBox: $0.box, score: $0.score) }
    }
}
