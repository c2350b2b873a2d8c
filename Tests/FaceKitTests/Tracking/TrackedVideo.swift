import Foundation
import FaceKitTestSupport

@testable import FaceKit

/// Runs a ``FaceTracker`` over every frame of a video.
enum TrackedVideo {
    static func faces(
        in path: String, options: FaceDetectorOptions, configuration: TrackerConfiguration = .init(),
        reidentification: FaceTracker.Reidentification = .required
    ) throws -> [Int: [Face]] {
        let tracker = try FaceTracker(
            options: options, configuration: configuration, models: ModelLocator(directory: TestData.models),
            reidentification: reidentification)
        let video = try VideoReader(contentsOfFile: path)
        var result: [Int: [Face]] = [:]
        while let frame = try video.next(), let image = frame.image {
            result[frame.index] = try tracker.process(image, timestampMs: frame.timestampMs)
        }
        return result
    }

    /// Default options with tracking on.
    static var trackingOptions: FaceDetectorOptions {
        var options = FaceDetectorOptions()
        options.isTrackingEnabled = true
        return options
    }
}
