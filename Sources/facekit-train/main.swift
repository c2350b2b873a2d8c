// facekit-train: fits FaceKit's small learned parts from ../shared/data.
//   facekit-train classifiers      retrains the smile and eye-open models, rewrites
//                                  Sources/FaceKit/Classification/ClassifierWeights.swift and
//                                  prints the held-out evaluation that docs/accuracy.md quotes
//   facekit-train landmark-seed    fits LandmarkSeed (YuNet faces to the 68-point model's box)
//   facekit-train detection-threshold  precision/recall of YuNet's scores: the default minDetectionScore
//   facekit-train head-pose        head pose against GENKI-4K's labels, and against YuNet's keypoints
// Run from a release build: swift run -c release facekit-train <command> [--data DIR] [--dry-run]
// [--cache FILE] (classifiers: remember detected landmarks between runs while experimenting)
import Foundation

do {
    let options = try TrainingOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    switch options.command {
    case .classifiers: try Training(options: options).run()
    case .landmarkSeed: try LandmarkSeedFit(options: options).run()
    case .detectionThreshold: try DetectionThreshold(options: options).run()
    case .headPose: try HeadPoseStudy(options: options).run()
    }
} catch let error as TrainingOptions.UsageError {
    FileHandle.standardError.write(Data("Error: \(error.message)\nUsage: \(TrainingOptions.usage)\n".utf8))
    exit(64)
} catch {
    FileHandle.standardError.write(Data("facekit-train: \(error)\n".utf8))
    exit(1)
}
