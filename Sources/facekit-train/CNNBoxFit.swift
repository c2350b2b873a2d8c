@_spi(Calibration) import FaceKit
import FaceKitDatasets
import Foundation

/// Fits ``CNNBoxMapping``: runs the HOG and the CNN detector on the fitting photos, pairs boxes
/// that overlap (IoU >= 0.5), and prints the median offset and scale of the pairs, to be copied
/// into Sources/FaceKit/Detection/CNNBoxMapping.swift.
///
/// Fitting photos: the dlib-faces images of training.xml and identities/train. The evaluation
/// sets (testing.xml, CompreFace, Helen) are not used.
struct CNNBoxFit {
    var options: TrainingOptions

    func run() throws {
        let models = TrainingOptions.models
        var fastOptions = FaceDetectorOptions()
        fastOptions.minFaceSize = 0.05
        var accurateOptions = fastOptions
        accurateOptions.performanceMode = .accurate
        let hog = try FaceDetector(options: fastOptions, models: models)
        let cnn = try FaceDetector(options: accurateOptions, models: models)

        var dx: [Double] = [], dy: [Double] = [], sw: [Double] = [], sh: [Double] = []
        for path in try fittingPhotos() {
            let image = try FaceImage(contentsOfFile: path)
            let hogBoxes = try hog.detectorBoxes(in: image)
            for c in try cnn.detectorBoxes(in: image) {
                guard let h = hogBoxes.max(by: { c.intersectionOverUnion($0) < c.intersectionOverUnion($1) }),
                    c.intersectionOverUnion(h) >= 0.5
                else { continue }
                dx.append(Double((h.minX - c.minX) / c.width))
                dy.append(Double((h.minY - c.minY) / c.height))
                sw.append(Double(h.width / c.width))
                sh.append(Double(h.height / c.height))
            }
            FileHandle.standardError.write(Data("cnn-box-mapping: \(path)\n".utf8))
        }
        print("pairs: \(dx.count)")
        print(String(format: "xOffset = %.4f, yOffset = %.4f, widthScale = %.4f, heightScale = %.4f",
                     median(dx), median(dy), median(sw), median(sh)))
    }

    func fittingPhotos() throws -> [String] {
        let training = try LabelledBoxes(contentsOf: options.data.appendingPathComponent("photos/dlib-faces/training.xml").path)
        let identities = options.data.appendingPathComponent("photos/identities/train")
        let people = try FileManager.default.contentsOfDirectory(atPath: identities.path).sorted()
        let portraits = try people.flatMap { person in
            try FileManager.default.contentsOfDirectory(atPath: identities.appendingPathComponent(person).path).sorted()
                .map { identities.appendingPathComponent(person).appendingPathComponent($0).path }
        }
        return training.images.map(\.file) + portraits
    }

    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
