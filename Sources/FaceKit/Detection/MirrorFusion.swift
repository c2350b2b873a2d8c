import Foundation

/// Joins what YuNet finds in an image and in its mirror image (test-time augmentation): a face
/// found both ways round gets the mean of the two scores, and its box and keypoints the
/// score-weighted mean of the two; a detection found only one way round gets half its score
/// (the mean with a missed twin's 0), so it survives only a threshold under 0.5.
///
/// Real faces look like faces either way round; most false detections (a dog's face, a pattern
/// in the wallpaper) do not, so fusion trades a little recall on borderline faces for fewer
/// false ones, and the averaged box jitters less.
///
/// ```swift
/// MirrorFusion.fused([face(score: 0.9)], [sameFace(score: 0.7)])   // one face, score 0.8
/// ```
enum MirrorFusion {
    /// Two detections at least this alike (intersection over union) are one face seen twice.
    static let sameFaceOverlap = 0.5

    /// The lowest score a pass must keep so that a face reaching `minimumScore` after fusion is
    /// not lost (its twin scores at most 1), but never under ``lowestPassScore``.
    static func passThreshold(for minimumScore: Double) -> Double { max(lowestPassScore, 2 * minimumScore - 1) }

    /// The floor of ``passThreshold(for:)``. Under a minimum of 0.5 (the second look's 0.3) the
    /// bound above is 0, and a pass kept every anchor: 60,000 at full size in a 2000 px photo,
    /// whose suppression and pairing took minutes. A face whose twin scores under the floor is
    /// fused with 0 for it instead: at most half the floor, 0.05, lower, and never enough to
    /// cross a minimum over 0.55.
    static let lowestPassScore = 0.1

    /// The fused faces scoring at least `minimumScore`, best first.
    static func fused(_ direct: [NativeYuNet.Face], _ mirrored: [NativeYuNet.Face], minimumScore: Double)
        -> [NativeYuNet.Face]
    {
        var unused = Array(mirrored.indices)
        var fused: [NativeYuNet.Face] = []
        for face in direct.sorted(by: { $0.score > $1.score }) {
            let twin = unused.max {
                BoxOverlap.intersectionOverUnion(face.box, mirrored[$0].box)
                    < BoxOverlap.intersectionOverUnion(face.box, mirrored[$1].box)
            }
            if let twin, BoxOverlap.intersectionOverUnion(face.box, mirrored[twin].box) >= sameFaceOverlap {
                unused.removeAll { $0 == twin }
                fused.append(mean(face, mirrored[twin]))
            } else {
                fused.append(halved(face))
            }
        }
        fused += unused.map { halved(mirrored[$0]) }
        return fused.filter { $0.score >= minimumScore }.sorted { $0.score > $1.score }
    }

    private static func halved(_ face: NativeYuNet.Face) -> NativeYuNet.Face {
        var face = face
        face.score /= 2
        return face
    }

    private static func mean(_ a: NativeYuNet.Face, _ b: NativeYuNet.Face) -> NativeYuNet.Face {
        let weight = a.score / max(a.score + b.score, 1e-9)
        func blend(_ p: CGPoint, _ q: CGPoint) -> CGPoint { q + (p - q) * weight }
        let origin = blend(a.box.origin, b.box.origin)
        let corner = blend(CGPoint(x: a.box.maxX, y: a.box.maxY), CGPoint(x: b.box.maxX, y: b.box.maxY))
        return NativeYuNet.Face(
            box: CGRect(x: origin.x, y: origin.y, width: corner.x - origin.x, height: corner.y - origin.y),
            keypoints: zip(a.keypoints, b.keypoints).map(blend), score: (a.score + b.score) / 2,
            quarterTurns: a.quarterTurns, viewDegrees: a.viewDegrees)
    }
}
