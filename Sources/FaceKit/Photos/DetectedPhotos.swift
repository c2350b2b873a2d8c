import Dispatch
import Synchronization

extension FaceDetector {
    /// ``process(_:)-4y4vc`` off the caller's thread: detection runs on a queue of the call's own, not on
    /// the caller's actor nor on the threads that tasks share. Once started it runs to the end
    /// (a photo takes a tenth of a second to a few seconds); cancel between photos, as
    /// ``photos(ofContentsOfFiles:maxPixels:)`` does.
    ///
    /// In `async` code, `try await detector.process(image)` runs here; the synchronous
    /// ``process(_:)-4y4vc`` is the one called from synchronous code.
    public func process(_ image: FaceImage) async throws(FaceKitError) -> [Face] {
        try await OffThreadWork.run(label: "FaceKit.FaceDetector.process") { _ in
            Result { () throws(FaceKitError) in try self.analyse(image).map(\.face) }
        }.get()
    }

    /// ``process(contentsOfFile:maxPixels:)-3140o`` off the caller's thread: decoding and detection run
    /// on a queue of the call's own, as the `async` `process(_:)` does.
    ///
    /// ```swift
    /// let faces = try await detector.process(contentsOfFile: "IMG_0042.jpg")
    /// ```
    public func process(contentsOfFile path: String, maxPixels: Int = FaceImage.defaultMaxPixels)
        async throws(FaceKitError) -> [Face]
    {
        try await OffThreadWork.run(label: "FaceKit.FaceDetector.process") { _ in
            Result { () throws(FaceKitError) in try self.photo(path, maxPixels: maxPixels).faces }
        }.get()
    }

    /// The faces of each photo file in `paths`, in that order, as an asynchronous sequence of
    /// ``DetectedPhoto``s: a photo that cannot be read or analysed is an element with its error,
    /// and the sequence goes on to the next.
    ///
    /// Each photo is decoded and analysed when the loop asks for it, on a queue of the sequence's
    /// own (off the caller's actor and off the threads that tasks share). Cancelling the task
    /// that iterates ends the sequence before the next photo (the photo being analysed is
    /// finished and not handed out). The photos are analysed one at a time, by this detector: for
    /// several at once, iterate several sequences, each with its own detector
    /// (``init(sharingModelsWith:)``) and its share of the paths.
    ///
    /// ```swift
    /// for await photo in detector.photos(ofContentsOfFiles: ["a.jpg", "b.png"]) {
    ///     switch photo.result {
    ///     case .success(let faces): print(photo.path, faces.count)   // a.jpg 2
    ///     case .failure(let error): print(error)                      // b.png: cannot read file: ...
    ///     }
    /// }
    /// ```
    public func photos(ofContentsOfFiles paths: [String], maxPixels: Int = FaceImage.defaultMaxPixels) -> DetectedPhotos {
        DetectedPhotos(detector: self, paths: paths, maxPixels: maxPixels)
    }

    /// The photo at `path` analysed, as ``DetectedPhotos`` hands it out (its size, as
    /// `facekit analyze` reports it).
    func photo(_ path: String, maxPixels: Int) throws(FaceKitError) -> (faces: [Face], width: Int, height: Int) {
        let (faces, width, height, _) = try processWithSize(contentsOfFile: path, maxPixels: maxPixels)
        return (faces, width, height)
    }
}

/// One photo of ``FaceDetector/photos(ofContentsOfFiles:maxPixels:)``: its path, and its faces or
/// why it could not be analysed.
public struct DetectedPhoto: Sendable {
    /// The path, as given.
    public let path: String
    /// The faces, ordered as ``FaceDetector/process(contentsOfFile:maxPixels:)-3140o`` orders them, or
    /// the error of a photo that could not be read or analysed.
    public let result: Result<[Face], FaceKitError>

    public init(path: String, result: Result<[Face], FaceKitError>) {
        self.path = path
        self.result = result
    }

    /// The faces, or the photo's error thrown.
    public func faces() throws(FaceKitError) -> [Face] { try result.get() }
}

/// The photos of ``FaceDetector/photos(ofContentsOfFiles:maxPixels:)``, analysed as they are
/// asked for, as an asynchronous sequence of ``DetectedPhoto``s. It never throws: a photo's error
/// is its element's. Iterate it once.
public struct DetectedPhotos: AsyncSequence, Sendable {
    public typealias Element = DetectedPhoto
    public typealias Failure = Never

    private let reading: Reading

    init(detector: FaceDetector, paths: [String], maxPixels: Int) {
        reading = Reading(detector: detector, paths: paths, maxPixels: maxPixels)
    }

    public func makeAsyncIterator() -> Iterator { Iterator(reading: reading) }

    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let reading: Reading

        public mutating func next() async -> DetectedPhoto? { await reading.next() }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> DetectedPhoto? {
            await reading.next()
        }
    }

    /// The detector and the paths not yet analysed; each ``next()`` analyses one photo on a
    /// serial queue of the sequence's own.
    fileprivate final class Reading: Sendable {
        private let detector: FaceDetector
        private let paths: [String]
        private let maxPixels: Int
        private let nextIndex = Mutex(0)
        private let queue = DispatchQueue(label: "FaceKit.DetectedPhotos")

        init(detector: FaceDetector, paths: [String], maxPixels: Int) {
            self.detector = detector
            self.paths = paths
            self.maxPixels = maxPixels
        }

        /// The next photo analysed; `nil` after the last, or when the task is cancelled.
        func next() async -> DetectedPhoto? {
            if Task.isCancelled { return nil }
            let photo = await withCheckedContinuation { continuation in
                queue.async { [self] in continuation.resume(returning: analyseNext()) }
            }
            // A photo finished after the task was cancelled is not handed out: the loop is over.
            return Task.isCancelled ? nil : photo
        }

        private func analyseNext() -> DetectedPhoto? {
            let index = nextIndex.withLock { index in
                defer { index += 1 }
                return index
            }
            guard index < paths.count else { return nil }
            let path = paths[index]
            let result = Result { () throws(FaceKitError) in try detector.photo(path, maxPixels: maxPixels).faces }
            return DetectedPhoto(path: path, result: result)
        }
    }
}
