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

    /// Whether the two cannot be one person: two faces of one photo, or two tracks of one video
    /// that overlap in time (a track's first to last frame; a track may have left and come back
    /// within that span, which this takes as on screen together). A face listed twice (the same
    /// photo and face index, or the same track) is not apart from itself.
    func isApart(from other: GroupedFace) -> Bool {
        guard record.source == other.record.source, isVideo == other.isVideo else { return false }
        guard isVideo else { return record.index != other.record.index }
        if let id = record.face.trackingID, id == other.record.face.trackingID { return false }
        if record.frame == other.record.frame && record.index == other.record.index { return false }
        let (start, end) = (firstFrame ?? record.frame!, lastFrame ?? record.frame!)
        let (otherStart, otherEnd) = (other.firstFrame ?? other.record.frame!, other.lastFrame ?? other.record.frame!)
        return start <= otherEnd && otherStart <= end
    }
}
