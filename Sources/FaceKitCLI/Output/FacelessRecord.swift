import FaceKit

/// A row that holds no face: an image or analysed video frame in which none was found
/// (``RowStatus/noFace``), or an input that could not be analysed (``RowStatus/failed``), so that
/// every input has a row and "no face" is told from "not analysed".
///
/// ```swift
/// FacelessRecord(source: "photos/b.jpg", status: .failed, failure: "not a readable image: ...")
/// ```
struct FacelessRecord {
    var source: String
    /// The analysed video frame without a face; `nil` for a photo, or a video that failed.
    var frame: Int?
    var timestampMilliseconds: Double?
    /// ``RowStatus/noFace`` or ``RowStatus/failed``.
    var status: RowStatus
    /// Why the input failed, as standard error says it, without the path that starts the message
    /// (written as paths are, ``FilePathEncoding``, since a reason may quote one).
    var failure: String?
    var image = ImageFacts()

    init(
        source: String, frame: Int? = nil, timestampMilliseconds: Double? = nil, status: RowStatus,
        failure: String? = nil, image: ImageFacts = ImageFacts()
    ) {
        precondition(status == .noFace || status == .failed, "FacelessRecord: a row without a face is no_face or failed")
        self.source = source
        self.frame = frame
        self.timestampMilliseconds = timestampMilliseconds
        self.status = status
        self.failure = failure
        self.image = image
    }

    /// The row of an input that failed with `message` (``FailedInput/description``): its reason,
    /// without the path the message starts with when it does.
    static func failed(_ source: String, frame: Int? = nil, message: String) -> FacelessRecord {
        let prefix = source + ": "
        let reason = message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
        return FacelessRecord(source: source, frame: frame, status: .failed, failure: reason)
    }
}
