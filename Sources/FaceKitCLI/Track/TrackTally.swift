import FaceKitArguments

/// What one `facekit track` run went through, for the line that closes it on a terminal, as
/// `analyze` closes with its summary: `clip.mp4: 275 frames analysed, 412 faces, 6 tracks, 2.1 s`,
/// or, with several videos, `3 videos, 825 frames analysed, 1230 faces, 14 tracks, 1 failed, 6.3 s`.
/// After `--resume` it covers the whole collection, the videos of the interrupted run included.
struct TrackTally: Equatable {
    /// Videos done: tracked to their end, or failed.
    var videos = 0
    /// The video's path, when the run went through exactly one.
    var onlyVideo: String?
    /// Videos that could not be read to their end.
    var failures = 0
    var framesAnalysed = 0
    /// Faces reported, one row each.
    var faces = 0
    /// Tracking IDs given out.
    var tracks = 0

    /// Counts one more video, named `path`.
    mutating func countVideo(_ path: String) {
        onlyVideo = videos == 0 ? path : nil
        videos += 1
    }

    /// The tally as the journal keeps it.
    var collectionTally: CollectionTally {
        CollectionTally(files: videos, faces: faces, failures: failures, frames: framesAnalysed, tracks: tracks)
    }

    /// The closing line, after `seconds` of work.
    func summaryText(seconds: Double) -> String {
        let counts = [
            Self.counted(framesAnalysed, "frame") + " analysed", Self.counted(faces, "face"),
            Self.counted(tracks, "track"),
        ]
        let time = (NumberFormat.decimal(seconds, fractionDigits: 1) ?? "0") + " s"
        if videos == 1, let onlyVideo {
            return MessageText.escaped(onlyVideo) + ": " + (counts + [time]).joined(separator: ", ")
        }
        return ([Self.counted(videos, "video")] + counts + ["\(failures) failed", time]).joined(separator: ", ")
    }

    /// `1 face`, `2 faces`.
    static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)" + (count == 1 ? "" : "s") }
}

extension TrackTally {
    /// The tally an interrupted run's journal recorded. (In an extension, so that the struct
    /// keeps its memberwise initialiser.)
    init(resumedFrom tally: CollectionTally) {
        self.init(
            videos: tally.files, failures: tally.failures, framesAnalysed: tally.frames ?? 0, faces: tally.faces,
            tracks: tally.tracks ?? 0)
    }
}
