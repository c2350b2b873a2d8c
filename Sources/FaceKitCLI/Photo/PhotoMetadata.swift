import FaceKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a JPEG photo's file says of itself besides its pixels, read from the segments before its
/// image data: when it was taken (EXIF DateTimeOriginal, ``ExifFields``) and its size turned
/// upright by its EXIF orientation (the frame header's, exact where a reduced decode is not).
/// Other formats give nothing here: their size is the decoded image's, and FaceKit reads no
/// capture time from them.
///
/// Only the segments' headers, the first EXIF segment and the frame header are read (a few reads
/// of a few bytes, and one of at most 64 KB), never the image data. A file that is not a JPEG,
/// or whose segments are damaged, gives what was read before the damage.
///
/// ```swift
/// let metadata = PhotoMetadata.read("photos/obama.jpg")
/// metadata.captureTime                                    // "2012-12-06T15:46:01.00"
/// (metadata.uprightWidth, metadata.uprightHeight)         // (910, 1137)
/// ```
struct PhotoMetadata: Equatable {
    var captureTime: String?
    var uprightWidth: Int?
    var uprightHeight: Int?

    /// The metadata of the file at `path`; empty when it cannot be read or is not a JPEG.
    static func read(_ path: String) -> PhotoMetadata {
        guard case .success(let descriptor) = RegularFile.open(path, O_RDONLY) else { return PhotoMetadata() }
        defer { _ = close(descriptor) }
        return jpeg { offset, count in Self.bytes(descriptor, offset: offset, count: count) }
    }

    /// The metadata of a JPEG whose bytes `read(offset, count)` gives (fewer at its end).
    static func jpeg(_ read: (Int, Int) -> [UInt8]) -> PhotoMetadata {
        var metadata = PhotoMetadata()
        guard read(0, 3) == [0xFF, 0xD8, 0xFF] else { return metadata }
        var exif: ExifFields?
        var size: (width: Int, height: Int)?
        var at = 2
        // At most this many segments: a crafted file cannot keep the walk going for long.
        for _ in 0..<1000 {
            let head = read(at, 4)
            guard head.count >= 2, head[0] == 0xFF else { break }
            let marker = head[1]
            if marker == 0xFF {
                at += 1   // a fill byte before the marker
                continue
            }
            // Markers without a length: TEM and the restart markers.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                at += 2
                continue
            }
            if marker == 0xDA || marker == 0xD9 || head.count < 4 { break }   // the image data, or the end
            let length = Int(head[2]) << 8 | Int(head[3])
            guard length >= 2 else { break }
            if marker == 0xE1, exif == nil {
                let body = read(at + 4, length - 2)
                if body.count == length - 2, body.starts(with: Array("Exif\0\0".utf8)) {
                    exif = ExifFields(tiff: body[6...])
                }
            }
            let isFrameHeader = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrameHeader, size == nil {
                let body = read(at + 4, 5)
                if body.count == 5 {
                    let height = Int(body[1]) << 8 | Int(body[2]), width = Int(body[3]) << 8 | Int(body[4])
                    if width > 0, height > 0 { size = (width, height) }
                }
            }
            at += 2 + length
        }
        metadata.captureTime = exif?.captureTime
        if let size {
            // Orientations 5-8 turn the stored picture a quarter.
            let turned = (exif?.orientation ?? 1) >= 5
            metadata.uprightWidth = turned ? size.height : size.width
            metadata.uprightHeight = turned ? size.width : size.height
        }
        return metadata
    }

    /// Up to `count` bytes of `descriptor` from `offset`; fewer at the end or on an error.
    private static func bytes(_ descriptor: Int32, offset: Int, count: Int) -> [UInt8] {
        guard count > 0, offset >= 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = buffer.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + filled, count - filled, off_t(offset + filled))
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        return Array(buffer[..<filled])
    }
}
