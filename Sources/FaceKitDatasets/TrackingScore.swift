import FaceKit
import Foundation

/// Tracked faces scored against ground truth, CLEAR-MOT style: per frame, ground-truth boxes and
/// tracked boxes are paired greedily by intersection over union (at least `minimumOverlap`);
/// an identity switch is a ground-truth identity matched to a different tracking ID than the
/// last time it was matched.
///
/// MOTA = 1 - (misses + false positives + switches) / ground-truth boxes (CLEAR MOT). IDF1 pairs
/// each ground-truth identity with at most one tracking ID for the whole clip, the pairing that
/// agrees on the most boxes (``OptimalAssignment``), and is 2 IDTP / (ground-truth boxes +
/// tracked boxes).
public struct TrackingScore: CustomStringConvertible, Sendable {
    /// One tracked face: its box and tracking ID.
    public struct Tracked: Sendable {
        public var box: CGRect
        public var id: Int
        public init(box: CGRect, id: Int) {
            self.box = box
            self.id = id
        }
    }

    /// Ground-truth boxes, and those paired with a tracked face.
    public var truthCount = 0
    public var matchedCount = 0
    /// Tracked faces in the scored frames.
    public var trackedCount = 0
    /// Tracked faces paired with no ground-truth box.
    public var falsePositives = 0
    /// Identity switches, by ground-truth identity.
    public var switches: [String: Int] = [:]
    /// Switches while the ground truth saw the identity all along since its last match: no
    /// leaving the picture or full occlusion explains them.
    public var unexplainedSwitches: [String: Int] = [:]
    /// Tracking IDs each identity was matched with, in order of first appearance.
    public var idsByIdentity: [String: [Int]] = [:]
    /// Matched boxes per (identity, tracking ID), for IDF1.
    var agreements: [String: [Int: Int]] = [:]
    /// Intersection over union of every pair.
    public var overlaps: [Double] = []

    /// `tracked` maps a frame index to its faces (frames absent were not analysed and are not
    /// scored).
    public init(truth: GroundTruth, tracked: [Int: [Tracked]], minimumOverlap: Double = 0.4) {
        let truthByFrame = Dictionary(grouping: truth.boxes, by: \.frame)
        let framesByIdentity = Dictionary(grouping: truth.boxes, by: \.identity).mapValues { Set($0.map(\.frame)) }
        var lastID: [String: Int] = [:]
        var lastFrame: [String: Int] = [:]
        for frame in tracked.keys.sorted() {
            let faces = tracked[frame]!
            let truths = truthByFrame[frame] ?? []
            truthCount += truths.count
            trackedCount += faces.count
            let scores = truths.map { t in faces.map { BoxOverlap.intersectionOverUnion(t.box, $0.box) } }
            let pairs = GreedyAssignment.pairs(scores: scores, minimum: minimumOverlap)
            matchedCount += pairs.count
            falsePositives += faces.count - pairs.count
            for (row, column) in pairs {
                let identity = truths[row].identity
                let id = faces[column].id
                overlaps.append(scores[row][column])
                agreements[identity, default: [:]][id, default: 0] += 1
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

    public var totalSwitches: Int { switches.values.reduce(0, +) }
    public var recall: Double { truthCount > 0 ? Double(matchedCount) / Double(truthCount) : 0 }
    public var meanOverlap: Double { overlaps.isEmpty ? 0 : overlaps.reduce(0, +) / Double(overlaps.count) }

    public var mota: Double {
        guard truthCount > 0 else { return 0 }
        return 1 - Double(truthCount - matchedCount + falsePositives + totalSwitches) / Double(truthCount)
    }

    public var idf1: Double {
        let identities = agreements.keys.sorted()
        let ids = Set(agreements.values.flatMap(\.keys)).sorted()
        let counts = identities.map { identity in ids.map { Double(agreements[identity]?[$0] ?? 0) } }
        let truePositives = OptimalAssignment.pairs(weights: counts).reduce(0.0) { $0 + counts[$1.row][$1.column] }
        let total = Double(truthCount + trackedCount)
        return total > 0 ? 2 * truePositives / total : 0
    }

    public var description: String {
        "matched \(matchedCount)/\(truthCount), MOTA \(mota), IDF1 \(idf1), false positives \(falsePositives), switches \(switches) "
            + "(unexplained \(unexplainedSwitches)), "
            + "ids \(idsByIdentity), mean IoU \(meanOverlap)"
    }
}

extension TrackingScore {
    /// Scores faces as FaceTracker returns them (each with a tracking ID).
    public init(truth: GroundTruth, faces: [Int: [Face]], minimumOverlap: Double = 0.4) {
        let tracked = faces.mapValues { frame in
            frame.map { face in
                guard let id = face.trackingID else { preconditionFailure("TrackingScore: a face has no tracking ID") }
                return Tracked(box: face.frame, id: id)
            }
        }
        self.init(truth: truth, tracked: tracked, minimumOverlap: minimumOverlap)
    }
}
