import FaceKit

/// One face to group: a photo's face, a video track (its best-quality face, with the track's
/// first and last frame), or a line of `analyze --descriptors` JSON Lines. Its descriptor is
/// `record.face.descriptor`; a face without one is written with no person.
struct GroupedFace {
    var record: FaceRecord
    /// For a video track: the first and last frame it was seen in.
    var firstFrame: Int?
    var lastFrame: Int?

    /// Whether the face comes from a video (it has a frame).
    var isVideo: Bool { record.frame != nil }
}
