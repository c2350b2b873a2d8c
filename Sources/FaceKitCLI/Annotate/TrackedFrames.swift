import FaceKit
import FaceKitArguments

/// The first of `facekit annotate`'s two passes over a video: the frames `--every`, `--start`
/// and `--end` choose, tracked as `facekit track` tracks them, each frame's faces kept with the
/// IDs and names `track` writes (``TrackCommand/joined(_:tracker:known:)``).
///
/// Why two passes: a track's final ID is known only at the end of the video, when tracks seen in
/// different shots are joined (``FaceTracker/videoTrackIDs()``). A copy drawn as the frames come
/// would show the performer of the Hamilton clip as 2 after a cut where `track` writes 0. The
/// faces are kept in memory, as `track` keeps a video's rows until its end (a few hundred bytes
/// a face); the frames are not: the second pass decodes the video again, which costs about a
/// tenth of tracking it (docs/benchmarks.md, "annotate").
///
/// ```swift
/// let tracked = TrackedFrames.track(reader, with: tracker, known: nil, progress: line)
/// tracked.faces[150]   // the faces of frame 150, with the IDs of track's CSV
/// ```
struct TrackedFrames {
    /// Each analysed frame's faces (frames without faces are not listed), in the detector's order.
    var faces: [Int: [FaceRecord]] = [:]
    /// Frames analysed: the second pass draws this many.
    var framesAnalysed = 0
    /// Why tracking stopped before the end; the frames before are kept.
    var failure: String?
    /// Whether reading stopped at `--end` (rather than at the end of the video or a failure).
    var passedEnd = false

    /// Tracks `reader`'s frames with `tracker` (reset first), naming each track after the known
    /// person its descriptors match.
    static func track(
        _ reader: SampledFrameReader, with tracker: FaceTracker, known: KnownPeople?, progress: ProgressLine
    ) -> TrackedFrames {
        var reader = reader
        var result = TrackedFrames()
        var records: [FaceRecord] = []
        let source = reader.video.path
        do throws(FaceKitError) {
            while let (frame, analyse) = try reader.next() {
                if analyse, let image = frame.image {
                    records += try tracker.records(of: frame, image: image, source: source)
                    result.framesAnalysed += 1
                }
                progress.update(framesRead: reader.framesRead, framesAnalysed: result.framesAnalysed)
            }
        } catch {
            result.failure = reader.video.failureMessage(error, kept: "frames")
        }
        result.passedEnd = reader.passedEnd
        result.faces = Dictionary(grouping: TrackCommand.joined(records, tracker: tracker, known: known)) { $0.frame! }
        return result
    }
}
