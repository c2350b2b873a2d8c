/// What a row says of the image or video frame it is about, besides its faces: its size and,
/// for a photo that records it, when it was taken.
///
/// ```swift
/// ImageFacts(width: 1200, height: 800, captureTime: "2012-12-06T15:46:01")
/// ```
struct ImageFacts: Equatable, Sendable {
    /// Width and height in pixels of the upright image (EXIF orientation applied), or the video's frame.
    var width: Int?
    var height: Int?
    /// EXIF DateTimeOriginal in ISO 8601 (``ExifFields/captureTime``); `nil` when the file has none.
    var captureTime: String?

    init(width: Int? = nil, height: Int? = nil, captureTime: String? = nil) {
        self.width = width
        self.height = height
        self.captureTime = captureTime
    }
}
