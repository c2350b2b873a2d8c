import Foundation

import FaceKit

/// Accurate mode's combination of dlib's two detectors, which beats either alone.
///
/// The MMOD CNN finds faces the HOG detector misses (turned, small, dark), but its boxes follow
/// another convention than the one the 68-point model was trained on, and on turned faces they
/// are shifted enough that the landmarks converge on the wrong structure. So every CNN face that
/// HOG also found takes HOG's box; the others take their CNN box mapped by ``CNNBoxMapping``;
/// and HOG faces the CNN missed are kept too.
///
/// ```swift
/// DetectionMerge.merged(cnn: [turnedFace, smallFace], hog: [turnedFaceHOG, extraFace])
/// // [turnedFaceHOG, mapped smallFace, extraFace]
/// ```
enum DetectionMerge {
    /// Boxes that overlap this much (intersection over union) are taken as one face.
    static let sameFaceOverlap = 0.3

    static func merged(cnn: [NativeDlibDetector.Detection], hog: [NativeDlibDetector.Detection]) -> [NativeDlibDetector.Detection] {
        var unusedHOG = Array(hog.indices)
        var merged: [NativeDlibDetector.Detection] = []
        for var detection in cnn {
            let mapped = CNNBoxMapping.hogStyle(detection.box)
            let best = unusedHOG.max {
                BoxOverlap.intersectionOverUnion(mapped, hog[$0].box) < BoxOverlap.intersectionOverUnion(mapped, hog[$1].box)
            }
            if let best, BoxOverlap.intersectionOverUnion(mapped, hog[best].box) >= sameFaceOverlap {
                detection.box = hog[best].box
                unusedHOG.removeAll { $0 == best }
            } else {
                detection.box = mapped
            }
            merged.append(detection)
        }
        return merged + unusedHOG.map { hog[$0] }
    }
}
