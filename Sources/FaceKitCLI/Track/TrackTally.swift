import FaceKitArguments

/// What one `facekit track` run went through, for the line that closes it on a terminal, as
/// `analyze` closes with its summary: `clip.mp4: 275 frames analysed, 412 faces, 6 tracks, 2.1 s`,
/// or, with several videos, `3 videos, 825 frames analysed, 1230 faces, 14 tracks, 1 failed, 6.3 s`.
struct TrackTally {
    /// The videos named, in order.
    var videos: [String] = []
    /// Videos that could not be read to their end.
    var failures = 0
    var framesAnalysed = 0
    /// Faces reported, one row each.
    var faces = 0
    /// Tracking IDs given out.
    var tracks = 0

    /// The closing line, after `seconds` of work.
    func summaryText(seconds: Double) -> String {
        let counts = [
            Self.counted(framesAnalysed, "frame") + " analysed", Self.counted(faces, "face"),
            Self.counted(tracks, "track"),
        ]
        let time = (NumberFormat.decimal(seconds, fractionDigits: 1) ?? "0") + " s"
        if videos.count == 1 {
            return MessageText.escaped(videos[0]) + ": " + (counts + [time]).joined(separator: ", ")
        }
        return ([Self.counted(videos.count, "video")] + counts + ["\(failures) failed", time]).joined(separator: ", ")
    }

    /// `1 face`, `2 faces`.
    static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)" + (count == 1 ? "" : "s") }
}
