import FaceKit

extension FaceDetector {
    /// The faces of one photo an ``ImageFileWalker`` found, or the line to report for it: the
    /// walk's own failure (a folder that cannot be read, ...) or the photo's (unreadable,
    /// truncated, more than `maxPixels`). What `report` runs on each photo.
    func faces(of entry: ImageFileWalker.Entry, maxPixels: Int) -> Result<[Face], FailedInput> {
        if let failure = entry.failureDescription { return .failure(FailedInput(description: failure)) }
        do throws(FaceKitError) {
            return .success(try process(contentsOfFile: entry.path, maxPixels: maxPixels))
        } catch {
            return .failure(FailedInput(description: error.description))
        }
    }

    /// ``faces(of:maxPixels:)`` with what a row of `analyze` (and of `group`'s faces.csv) says of
    /// the photo: its upright size (exact, from a JPEG's header where it was decoded reduced) and
    /// its EXIF capture time (``PhotoMetadata``).
    func photo(of entry: ImageFileWalker.Entry, maxPixels: Int) -> Result<(faces: [Face], image: ImageFacts), FailedInput> {
        if let failure = entry.failureDescription { return .failure(FailedInput(description: failure)) }
        do throws(FaceKitError) {
            let found = try processWithSize(contentsOfFile: entry.path, maxPixels: maxPixels)
            let metadata = PhotoMetadata.read(entry.path)
            var image = ImageFacts(width: found.width, height: found.height, captureTime: metadata.captureTime)
            if found.reduction > 1, let width = metadata.uprightWidth, let height = metadata.uprightHeight {
                (image.width, image.height) = (width, height)
            }
            return .success((found.faces, image))
        } catch {
            return .failure(FailedInput(description: error.description + Self.videoHint(entry.path, error)))
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
