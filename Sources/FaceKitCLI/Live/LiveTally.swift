import FaceKit
import FaceKitArguments

/// What a live run went through, for its closing line (written even when standard error is not
/// a terminal, since the skipped frames are news): `udp://127.0.0.1:5004: 812 frames read, 800
/// analysed, 12 skipped (over --max-delay), 3 tracks, 1030 faces, 27.1 s`.
struct LiveTally: Equatable {
    var source: String
    var framesRead = 0
    var framesAnalysed = 0
    var framesSkipped = 0
    var faces = 0
    var tracks = 0
    var end = VideoReader.End.endOfStream

    func summaryText(seconds: Double) -> String {
        let ending: String =
            switch end {
            case .endOfStream: "stream ended"
            case .stalled: "stream stalled"
            case .interrupted: "stopped by signal"
            }
        let parts = [
            TrackTally.counted(framesRead, "frame") + " read", "\(framesAnalysed) analysed",
            "\(framesSkipped) skipped (over --max-delay)", TrackTally.counted(tracks, "track"),
            TrackTally.counted(faces, "face"), ending,
            (NumberFormat.decimal(seconds, fractionDigits: 1) ?? "0") + " s",
        ]
        return MessageText.escaped(source) + ": " + parts.joined(separator: ", ")
    }
}

extension LiveTally {
    /// Says on `stderr` how reading ended when that is news (`kept`: what of the frames before is
    /// kept, "rows" or "frames"): damaged data (a stream over UDP loses a
    /// packet now and then: said, but not a failure), `failure`, or a stall.
    static func report(
        failure: String?, video: VideoReader, tally: LiveTally, flags: LiveFlags, kept: String, to stderr: any TextOutput
    ) {
        if let damaged = video.incompleteReadingMessage(kept: kept) { stderr.writeDiagnostic(damaged) }
        if let failure { stderr.writeDiagnostic(failure) }
        if tally.end == .stalled { stderr.writeDiagnostic(flags.stallMessage(source: tally.source)) }
    }
}
