import Foundation

@testable import FaceKit

/// Tracked faces scored against ground truth, CLEAR-MOT style: per frame, ground-truth boxes and
/// tracked boxes are paired greedily by intersection over union (at least `minimumOverlap`);
/// an identity switch is a ground-truth identity matched to a different tracking ID than the
/// last time it was matched.
struct TrackingScore: CustomStringConvertible {
    /// Ground-truth boxes, and those paired with a tracked face.
    var truthCount = 0
    var matchedCount = 0
    /// Tracked faces paired with no ground-truth box.
    var falsePositives = 0
    /// Identity switches, by ground-truth identity.
    var switches: [String: Int] = [:]
    /// Switches while the ground truth saw the identity all along since its last match: no
    /// leaving the picture or full occlusion explains them.
    var unexplainedSwitches: [String: Int] = [:]
    /// Tracking IDs each identity was matched with, in order of first appearance.
    var idsByIdentity: [String: [Int]] = [:]
    /// Intersection over union of every pair.
    var overlaps: [Double] = []

    /// `tracked` maps a frame index to its faces (frames absent were not analysed and are not
    /// scored).
    init(truth: GroundTruth, tracked: [Int: [Face]], minimumOverlap: Double = 0.4) {
        let truthByFrame = Dictionary(grouping: truth.boxes, by: \.frame)
        let framesByIdentity = Dictionary(grouping: truth.boxes, by: \.identity).mapValues { Set($0.map(\.frame)) }
        var lastID: [String: Int] = [:]
        var lastFrame: [String: Int] = [:]
        for frame in tracked.keys.sorted() {
            let faces = tracked[frame]!
            let truths = truthByFrame[frame] ?? []
            truthCount += truths.count
            let scores = truths.map { t in faces.map { BoxOverlap.intersectionOverUnion(t.box, $0.frame) } }
            let pairs = GreedyAssignment.pairs(scores: scores, minimum: minimumOverlap)
            matchedCount += pairs.count
            falsePositives += faces.count - pairs.count
            for (row, column) in pairs {
                let identity = truths[row].identity
                let id = faces[column].trackingID!
                overlaps.append(scores[row][column])
                if let last = lastID[identity], last != id {
                    switches[identity, default: 0] += 1
                    let between = (lastFrame[identity]! + 1)..<frame
                    if between.allSatisfy({ framesByIdentity[identity]!.contains($0) }) {
                        unexplainedSwitches[identity, default: 0] += 1
                    }
                }
                lastID[identity] = id
                lastFrame[identity] = frame
                if !(idsByIdentity[identity]?.contains(id) ?? false) { idsByIdentity[identity, default: []].append(id) }
            }
        }
    }

    var totalSwitches: Int { switches.values.reduce(0, +) }
    var recall: Double { truthCount > 0 ? Double(matchedCount) / Double(truthCount) : 0 }
    var meanOverlap: Double { overlaps.isEmpty ? 0 : overlaps.reduce(0, +) / Double(overlaps.count) }

    var description: String {
        "matched \(matchedCount)/\(truthCount), false positives \(falsePositives), switches \(switches) "
            + "(unexplained \(unexplainedSwitches)), "
            + "ids \(idsByIdentity), mean IoU \(meanOverlap)"
    }
}
