import FaceKit

extension FaceDetector {
    /// One photo an ``ImageFileWalker`` found, decoded and its metadata read, or the line to
    /// report for it: the walk's own failure (a folder that cannot be read, ...) or the photo's
    /// (unreadable, truncated, more than `maxPixels`). What ``photo(_:)`` analyses. It
    /// only reads this detector's options (``PhotoQueue`` runs it on another thread while the
    /// detector analyses the photo before).
    func load(_ entry: ImageFileWalker.Entry, maxPixels: Int) -> Result<LoadedPhoto, FailedInput> {
        if let failure = entry.failureDescription { return .failure(FailedInput(description: failure)) }
        do throws(FaceKitError) {
            let image = try decodedImage(contentsOfFile: entry.path, maxPixels: maxPixels)
            return .success(LoadedPhoto(image: image, metadata: PhotoMetadata.read(entry.path)))
        } catch {
            return .failure(FailedInput(description: error.description + Self.videoHint(entry.path, error)))
        }
    }

    /// The faces of a photo ``load(_:maxPixels:)`` read, or the line to report for it, with what a
    /// row of `analyze` (and of `group`'s faces.csv) says of the photo: its upright size (exact,
    /// from a JPEG's header where it was decoded reduced) and its EXIF capture time
    /// (``PhotoMetadata``). What `analyze`, `group` and `report` run on each photo.
    func photo(_ loaded: Result<LoadedPhoto, FailedInput>) -> Result<(faces: [Face], image: ImageFacts), FailedInput> {
        loaded.flatMap { photo in
            do throws(FaceKitError) {
                let found = try processWithSize(photo.image)
                let metadata = photo.metadata
                var image = ImageFacts(width: found.width, height: found.height, captureTime: metadata.captureTime)
                if found.reduction > 1, let width = metadata.uprightWidth, let height = metadata.uprightHeight {
                    (image.width, image.height) = (width, height)
                }
                return .success((found.faces, image))
            } catch {
                // Only decoding finds a file that is not an image: the video hint is load's.
                return .failure(FailedInput(description: error.description))
            }
        }
    }

    /// What to add to the message of a video given to `analyze`: that `track` reads it.
    static func videoHint(_ path: String, _ error: FaceKitError) -> String {
        guard case .notAnImage = error, ImageFileWalker.hasExtension(path, in: ImageFileWalker.videoExtensions) else {
            return ""
        }
        return "; it is named as a video: run facekit track \(ResumeHint.shellWord(path))"
    }
}

/// A photo of a walk decoded (as small as the detector's options allow) with its metadata: what
/// ``FaceDetector/load(_:maxPixels:)`` reads ahead of the photo's analysis.
struct LoadedPhoto: Sendable {
    let image: FaceImage
    let metadata: PhotoMetadata
}
