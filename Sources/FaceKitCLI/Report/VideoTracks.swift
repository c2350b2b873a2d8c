import FaceKit
import Foundation

/// One video's faces as tracks: what the timelines and the contact sheet of a video page show.
struct VideoTracks {
    /// One tracking ID's faces, in time order.
    struct Track {
        var id: Int
        var faces: [ReportFace]
        /// When each blink ended (``BlinkCounter``'s rule: open, closed for at most a second, open).
        var blinkTimesMs: [Double]
        /// Blinks from `track --summary`, when given: the count over every frame analysed.
        var summaryBlinks: Int?
        var person: String?
        /// The track's descriptor, for grouping it with other faces (``ReportPeople``): the mean
        /// of its best shots' descriptors, as `group` describes a track; `nil` when none has one.
        var descriptor: FaceDescriptor?

        var firstMs: Double { faces.first?.timestampMs ?? 0 }
        var lastMs: Double { faces.last?.timestampMs ?? 0 }
        var meanSmile: Double? {
            let smiles = faces.compactMap(\.smiling)
            return smiles.isEmpty ? nil : smiles.reduce(0, +) / Double(smiles.count)
        }
        /// Its best shot by ``ReportFace/shotRank``, the face shown beside its ID.
        var best: ReportFace? { faces.max { $0.shotRank < $1.shotRank } }
    }

    var source: String
    var tracks: [Track]
    /// The usual time between analysed frames (the median), which tells a gap from a step.
    var stepMs: Double
    /// From the first analysed frame's start to the last one's end.
    var durationMs: Double
    /// Every analysed frame that has a face, by index, with its faces.
    var framesWithFaces: [Int: [ReportFace]]

    /// Time between two samples beyond which a track's lines break: the face was not seen.
    var gapMs: Double { max(2.5 * stepMs, 1) }

    init(source: String, faces: [ReportFace], summary: [ReportTable.TrackSummaryRow] = []) {
        self.source = source
        let ordered = faces.sorted { ($0.frame ?? 0, $0.index) < ($1.frame ?? 0, $1.index) }
        let times = Array(Set(ordered.compactMap(\.timestampMs))).sorted()
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }.sorted()
        stepMs = steps.isEmpty ? 40 : steps[steps.count / 2]
        durationMs = (times.last ?? 0) + stepMs
        var byID: [Int: [ReportFace]] = [:]
        for face in ordered { byID[face.trackingID ?? -1, default: []].append(face) }
        let summaries = Dictionary(summary.map { ($0.trackingID, $0) }, uniquingKeysWith: { first, _ in first })
        tracks = byID.keys.sorted().map { id in
            let faces = byID[id]!
            var counter = BlinkCounter()
            var blinks: [Double] = []
            for face in faces {
                let before = counter.count
                let time = face.timestampMs ?? 0
                counter.record(leftEyeOpen: face.leftEyeOpen, rightEyeOpen: face.rightEyeOpen, timestampMs: time)
                if counter.count > before { blinks.append(time) }
            }
            let names = faces.compactMap(\.person)
            let mostCommon = Dictionary(grouping: names, by: { $0 }).max { $0.value.count < $1.value.count }?.key
            // As group reads track's JSON Lines: the mean over the best shots that have one.
            let shots = faces.filter { $0.descriptor != nil }.sorted { $0.shotRank > $1.shotRank }
                .prefix(VideoTrackFaces.shotsPerTrack).compactMap(\.descriptor)
            return Track(
                id: id, faces: faces, blinkTimesMs: blinks, summaryBlinks: summaries[id]?.blinks,
                person: summaries[id]?.person ?? mostCommon,
                descriptor: shots.isEmpty ? nil : FaceDescriptor.mean(of: Array(shots)))
        }
        // Each face named as its track is, so that a frame's tags say who the track is even
        // where --known did not recognise the face in that frame.
        let names = Dictionary(uniqueKeysWithValues: tracks.map { ($0.id, $0.person) })
        var byFrame: [Int: [ReportFace]] = [:]
        for var face in ordered {
            if let name = names[face.trackingID ?? -1] ?? nil { face.person = name }
            byFrame[face.frame ?? 0, default: []].append(face)
        }
        framesWithFaces = byFrame
    }

    /// The runs of time a track is on screen: consecutive samples closer than ``gapMs``.
    func segments(of track: Track) -> [(startMs: Double, endMs: Double)] {
        var runs: [(Double, Double)] = []
        for face in track.faces {
            let time = face.timestampMs ?? 0
            if let last = runs.last, time - last.1 <= gapMs {
                runs[runs.count - 1].1 = time
            } else {
                runs.append((time, time))
            }
        }
        return runs.map { ($0.0, $0.1 + stepMs) }
    }
}
