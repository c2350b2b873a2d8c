import FaceKit
import FaceKitArguments
import FaceKitDatasets
import Foundation

/// The training run: extract features with the library's own code, fit, evaluate on held-out
/// data, write the weights.
///
/// Splits (nothing is tuned on the held-out parts):
/// - smile: GENKI-4K files numbered 1 mod 4 train, 3 mod 4 are held out (shared/data holds the
///   odd-numbered files, and GENKI is ordered by label, so a split by range would be one-sided);
/// - eyes: the still model is the eye-state network, which `scripts/train-eye-model` trains and
///   measures leave-one-set-out; the video model on top of it is fitted on the network's held-out
///   probabilities of the FOCUS clips and scored leave-one-person-out (``EyeStudy``).
struct Training {
    var options: TrainingOptions

    func run() throws {
        let detector = try TrainingOptions.detector()
        let haarSmile = try HaarSmileBaseline()

        let cache = try ShapeCache(file: options.cache)
        let smile = try SmileData.load(data: options.data, detector: detector, cache: cache)
        let smileModel = LogisticModel.fit(samples: smile.train.map(\.features), labels: smile.train.map(\.label))
        // The same fit on GENKI-4K alone, to show what adding SMILEsmileD changes.
        let genkiTrain = smile.train.filter { $0.source.contains("/genki4k/") }
        let genkiOnlyModel = LogisticModel.fit(samples: genkiTrain.map(\.features), labels: genkiTrain.map(\.label))
        let haarScores = try zip(smile.heldOut, smile.heldOutBoxes).map { example, box in
            try haarSmile.score(in: FaceImage(contentsOfFile: example.source), face: box)
        }
        let eyes = try EyeStudy.run(
            samples: EyeSamples.load(data: options.data, detector: detector, cache: cache),
            stillHeldOut: EyeHeldOut.read(options.eyeHeldOut ?? EyeHeldOut.defaultFile))
        try cache.save()

        print(Report.smile(model: smileModel, genkiOnly: genkiOnlyModel, data: smile, haarScores: haarScores))
        print(eyes.report.joined(separator: "\n"))
        if !options.dryRun {
            try WeightsFile.write(smile: smileModel, eyeOpenInVideo: eyes.video, to: options.weightsFile)
            FileHandle.standardError.write(Data("facekit-train: wrote \(options.weightsFile.path)\n".utf8))
        }
    }
}

/// One training or evaluation example: features, the truth, and where it came from.
struct Example {
    var features: [Double]
    var label: Bool
    var source: String
}

/// The largest face in an image, with its 68 points; `nil` when no face is found.
func largestFace(in image: FaceImage, detector: FaceDetector) throws -> (face: Face, shape: FaceShape)? {
    try detector.analyse(image).max { $0.face.frame.width < $1.face.frame.width }
}
