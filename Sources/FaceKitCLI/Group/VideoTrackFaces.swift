import FaceKit
import FaceKitArguments
import Foundation

/// The faces a video gives `facekit group`: one per track, its best-quality face, with the
/// track's first and last frame and one descriptor for the whole track. Tracks have the IDs
/// `track` writes (tracks joined across cuts are one, ``videoTracks(_:ids:)``), so that
/// group's `faces.csv` and a report made from it name a video's people as `track` does.
///
/// A descriptor costs a ResNet pass, so not every frame gets one: the video is tracked first
/// without descriptors (``FaceTracker``; each face's quality comes free), keeping each track's
/// ``shotsPerTrack`` best-quality faces; then the frames holding those shots are decoded again
/// and described (the photo detector, which computes descriptors), each shot matched to the face
/// found there that overlaps it most (IoU at least 0.5). The track's descriptor is the mean of
/// its shots' (``FaceDescriptor/mean(of:)``), steadier than any one of them.
enum VideoTrackFaces {
    /// Faces per track that are described.
    static let shotsPerTrack = 3
    /// Overlap a described face needs with a tracked shot to stand for it.
    static let minimumOverlap = 0.5

    /// What tracking kept of one track.
    struct TrackShots {
        var firstFrame: Int
        var lastFrame: Int
        /// The best-quality faces, best first.
        var shots: [FaceRecord] = []

        mutating func add(_ record: FaceRecord) {
            firstFrame = min(firstFrame, record.frame ?? firstFrame)
            lastFrame = max(lastFrame, record.frame ?? lastFrame)
            let position = shots.firstIndex { $0.face.quality < record.face.quality } ?? shots.count
            guard position < VideoTrackFaces.shotsPerTrack else { return }
            shots.insert(record, at: position)
            if shots.count > VideoTrackFaces.shotsPerTrack { shots.removeLast() }
        }
    }

    /// The tracks of the video at `path`, and the message to report when it could not be read to
    /// its end (the tracks found before are kept). While it tracks, `progress` (standard error,
    /// when it is a terminal) shows the frames read, as `track` does.
    static func faces(
        in path: String, maxPixels: Int, tracker: FaceTracker, describer: FaceDetector, frames: FrameSelectionFlags,
        progress: (output: any TextOutput, enabled: Bool)
    ) -> (faces: [GroupedFace], failure: String?) {
        tracker.reset()
        var tracks: [Int: TrackShots] = [:]
        var failure = tracker.trackVideo(
            at: path, maxPixels: maxPixels, sampler: frames.sampler, progress: progress, kept: "tracks"
        ) { record in add(record, to: &tracks) }.failure
        tracks = videoTracks(tracks, ids: tracker.videoTrackIDs())
        let descriptors: [Int: [FaceDescriptor]]
        do throws(FaceKitError) {
            descriptors = try describe(tracks, in: path, maxPixels: maxPixels, with: describer)
        } catch {
            descriptors = [:]
            failure = failure ?? "\(error.description) (while describing the tracks)"
        }
        let faces = tracks.keys.sorted().map { id in
            let track = tracks[id]!
            var record = track.shots[0]
            let found = descriptors[id] ?? []
            record.face.descriptor = found.isEmpty ? nil : FaceDescriptor.mean(of: found)
            if found.isEmpty { record.face.descriptorAbsenceReason = .landmarksImplausible }
            return GroupedFace(record: record, firstFrame: track.firstFrame, lastFrame: track.lastFrame)
        }
        return (faces, failure)
    }

    /// Adds a face `record` of a video to its track's shots (tracks by tracking ID).
    static func add(_ record: FaceRecord, to tracks: inout [Int: TrackShots]) {
        guard let id = record.face.trackingID, let frame = record.frame else { return }
        tracks[id, default: TrackShots(firstFrame: frame, lastFrame: frame)].add(record)
    }

    /// `tracks` under their video's IDs (``FaceTracker/videoTrackIDs()``), the IDs `track`
    /// writes: tracks joined across cuts become one, spanning both, with the best shots of both.
    static func videoTracks(_ tracks: [Int: TrackShots], ids: [Int: Int]) -> [Int: TrackShots] {
        var joined: [Int: TrackShots] = [:]
        for (id, track) in tracks.sorted(by: { $0.key < $1.key }) {
            let videoID = ids[id] ?? id
            var merged = joined[videoID] ?? TrackShots(firstFrame: track.firstFrame, lastFrame: track.lastFrame)
            merged.firstFrame = min(merged.firstFrame, track.firstFrame)
            merged.lastFrame = max(merged.lastFrame, track.lastFrame)
            for var shot in track.shots {
                shot.face.trackingID = videoID
                merged.add(shot)
            }
            joined[videoID] = merged
        }
        return joined
    }

    /// Each track's shots' descriptors, from a second read of the video (`report` describes the
    /// tracks it analysed this way too).
    static func describe(
        _ tracks: [Int: TrackShots], in path: String, maxPixels: Int, with describer: FaceDetector
    ) throws(FaceKitError) -> [Int: [FaceDescriptor]] {
        var wanted: [Int: [(id: Int, box: CGRect)]] = [:]
        for (id, track) in tracks {
            for shot in track.shots { wanted[shot.frame!, default: []].append((id, shot.face.frame)) }
        }
        guard let lastWanted = wanted.keys.max() else { return [:] }
        let video = try VideoReader(contentsOfFile: path, maxPixels: maxPixels)
        var descriptors: [Int: [FaceDescriptor]] = [:]
        while video.lastIndex < lastWanted {
            let decode = wanted[video.lastIndex + 1] != nil
            guard let frame = try video.next(decode: decode) else { break }
            guard let shots = wanted[frame.index], let image = frame.image else { continue }
            let found = try describer.process(image)
            for shot in shots {
                let overlaps = found.map { overlap($0.frame, shot.box) }
                guard let best = overlaps.indices.max(by: { overlaps[$0] < overlaps[$1] }),
                    overlaps[best] >= minimumOverlap, let descriptor = found[best].descriptor
                else { continue }
                descriptors[shot.id, default: []].append(descriptor)
            }
        }
        return descriptors
    }

    /// Intersection over union of two boxes.
    private static func overlap(_ a: CGRect, _ b: CGRect) -> Double {
        let shared = a.intersection(b)
        guard !shared.isNull, shared.width > 0, shared.height > 0 else { return 0 }
        let area = Double(shared.width * shared.height)
        return area / (Double(a.width * a.height) + Double(b.width * b.height) - area)
    }
}
