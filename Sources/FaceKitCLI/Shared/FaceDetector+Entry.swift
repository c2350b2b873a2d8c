import FaceKit

extension FaceDetector {
    /// The faces of one photo an ``ImageFileWalker`` found, or the line to report for it: the
    /// walk's own failure (a folder that cannot be read, ...) or the photo's (unreadable,
    /// truncated, more than `maxPixels`). What `analyze`, `group` and `report` run on each photo.
    func faces(of entry: ImageFileWalker.Entry, maxPixels: Int) -> Result<[Face], FailedInput> {
        if let failure = entry.failureDescription { return .failure(FailedInput(description: failure)) }
        do throws(FaceKitError) {
            return .success(try process(contentsOfFile: entry.path, maxPixels: maxPixels))
        } catch {
            return .failure(FailedInput(description: error.description))
        }
    }
}
