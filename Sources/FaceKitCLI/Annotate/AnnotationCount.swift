/// What `facekit annotate` drew into one copy, for the line it writes on standard error after
/// the copy (unless `--quiet`), so that a run shows at a glance where faces were found.
///
/// ```swift
/// AnnotationCount(frames: 125, faces: 230).line(for: "annotated/clip.mp4")  // "annotated/clip.mp4: 125 frames, 230 faces drawn"
/// AnnotationCount(frames: nil, faces: 1).line(for: "annotated/a.jpg")       // "annotated/a.jpg: 1 face drawn"
/// ```
struct AnnotationCount: Equatable {
    /// Frames written, for a video; `nil` for an image.
    var frames: Int?
    /// Faces drawn, over all frames.
    var faces = 0

    /// The line for the copy at `outputPath`, without the `facekit: ` of messages.
    func line(for outputPath: String) -> String {
        let counts = (frames.map { [TrackTally.counted($0, "frame")] } ?? []) + [TrackTally.counted(faces, "face")]
        return "\(outputPath): " + counts.joined(separator: ", ") + " drawn"
    }
}
