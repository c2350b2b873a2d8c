import FaceKit

/// The work queue `analyze`, `group` and `report` run over a walk's photos: each detector
/// analyses one photo at a time on a thread of its own, the results come back in the walk's
/// order (``OrderedWorkQueue``), and the next photo is decoded while the photos before are
/// analysed (``LoadAhead``).
///
/// ```swift
/// let queue = PhotoQueue(detectors: detectors, window: 8)
/// queue.run(inputs: PhotoQueue.photos(entries, detector: detectors[0], maxPixels: maxPixels)) {
///     _, photo, result in write(photo.input.path, result)
/// }
/// ```
typealias PhotoQueue = OrderedWorkQueue<FaceDetector, PhotoQueueInput, Result<(faces: [Face], image: ImageFacts), FailedInput>>

/// A photo of the walk, its decoding started. (A ``LoadAhead``'s element does not depend on the
/// sequence it reads: the walk's lazy sequence and an array give the same.)
typealias PhotoQueueInput = LoadAhead<[ImageFileWalker.Entry], Result<LoadedPhoto, FailedInput>>.Element

extension PhotoQueue {
    /// A queue with one worker per detector, at most `window` photos claimed beyond the last
    /// delivered (``OrderedWorkQueue``).
    convenience init(detectors: [FaceDetector], window: Int) {
        self.init(workers: detectors, window: window) { detector, photo in
            detector.photo(photo.loaded.take())
        }
    }

    /// The photos of `entries`, each decoded by `detector`'s options (only read: the detector
    /// may be analysing meanwhile) as the walk reaches it.
    static func photos<Entries: Sequence<ImageFileWalker.Entry>>(
        _ entries: Entries, detector: FaceDetector, maxPixels: Int
    ) -> LoadAhead<Entries, Result<LoadedPhoto, FailedInput>> {
        LoadAhead(entries) { entry in detector.load(entry, maxPixels: maxPixels) }
    }
}
