import FaceKit
import FaceKitArguments

extension FaceTracker {
    /// The faces the tracker finds in one frame of the video `source`, as the records a row is
    /// written from: what `track` (files and live sources), `annotate`, `group` and `report` make
    /// of a frame.
    ///
    /// ```swift
    /// for record in try tracker.records(of: frame, image: image, source: "clip.mp4") { writer.write(record) }
    /// ```
    func records(of frame: VideoReader.Frame, image: FaceImage, source: String) throws(FaceKitError) -> [FaceRecord] {
        Self.records(try process(image, timestampMs: frame.timestampMs), of: frame, source: source)
    }

    /// `faces`, found in `frame` of `source`, as records.
    static func records(_ faces: [Face], of frame: VideoReader.Frame, source: String) -> [FaceRecord] {
        records(
            TrackedVideoFrame(index: frame.index, timestampMs: frame.timestampMs, faces: faces), source: source,
            image: frameFacts(frame))
    }

    /// The faces of `frame`, of `source` (whose frames `image` describes), as records.
    static func records(_ frame: TrackedVideoFrame, source: String, image: ImageFacts) -> [FaceRecord] {
        frame.faces.enumerated().map { index, face in
            FaceRecord(
                source: source, frame: frame.index, timestampMilliseconds: frame.timestampMs, index: index, face: face,
                image: image)
        }
    }

    /// The row of an analysed `frame` of `source` in which no face was found.
    static func faceless(_ frame: VideoReader.Frame, source: String) -> FacelessRecord {
        FacelessRecord(
            source: source, frame: frame.index, timestampMilliseconds: frame.timestampMs, status: .noFace,
            image: frameFacts(frame))
    }

    /// The row of a `frame` of `source` (whose frames `image` describes) in which no face was found.
    static func faceless(_ frame: TrackedVideoFrame, source: String, image: ImageFacts) -> FacelessRecord {
        FacelessRecord(
            source: source, frame: frame.index, timestampMilliseconds: frame.timestampMs, status: .noFace, image: image)
    }

    /// The frame's size.
    private static func frameFacts(_ frame: VideoReader.Frame) -> ImageFacts {
        ImageFacts(width: frame.image?.width, height: frame.image?.height)
    }

    /// Tracks the video file at `path` from where the tracker stands (callers ``reset()`` it
    /// first), handing each face's record to `emit` and each analysed frame without a face to
    /// `emitFaceless`, in frame order, its progress drawn as `track` draws it
    /// (``ProgressLine``). Returns how many frames were analysed, and the message to report when
    /// the video could not be opened or read to its end (`nil` when it was), saying that the
    /// `kept` ("rows", "faces", "tracks") before the failure were kept.
    ///
    /// With `finalIDs`, records come with their final IDs (``track(_:index:timestampMs:)``), each
    /// frame's once they are decided, so that they can be written as they come; otherwise with the
    /// provisional IDs of ``processInBackground(_:timestampMs:)``, as soon as each frame is
    /// described, for ``videoTrackIDs()`` to map at the end.
    ///
    /// `framesLeft` counts analysed frames down to a stop as abrupt as a kill (`track`'s tests):
    /// at 0 the video is left part way, with no message.
    func trackVideo(
        at path: String, maxPixels: Int, sampler: FrameSampler, progress: (output: any TextOutput, enabled: Bool),
        kept: String, framesLeft: inout Int?, finalIDs: Bool = false, emit: (FaceRecord) -> Void,
        emitFaceless: (FacelessRecord) -> Void = { _ in }
    ) -> (framesAnalysed: Int, failure: String?) {
        let video: VideoReader
        do {
            video = try VideoReader(contentsOfFile: path, maxPixels: maxPixels)
        } catch {
            return (0, error.description)
        }
        var frames = SampledFrameReader(video: video, sampler: sampler)
        let line = ProgressLine(output: progress.output, enabled: progress.enabled, source: path, frames: frames)
        defer { line.finish() }
        var framesAnalysed = 0
        // Frames tracked whose faces are still being described, oldest first: the tracker goes
        // on to the next frame meanwhile (``FaceTracker/processInBackground(_:timestampMs:)``).
        var describing: [(frame: VideoReader.Frame, faces: PendingFaces)] = []
        /// Emits the rows of the frames described, in order; of all of them when `waiting`. A frame
        /// that could not be described ends the rows there: the frames after it are dropped.
        func emitDescribed(waiting: Bool) throws(FaceKitError) {
            while let (frame, pending) = describing.first, waiting || pending.isReady {
                describing.removeFirst()
                let faces: [Face]
                do {
                    faces = try pending.faces()
                } catch {
                    describing.removeAll()
                    throw error
                }
                for record in Self.records(faces, of: frame, source: path) { emit(record) }
                if faces.isEmpty { emitFaceless(Self.faceless(frame, source: path)) }
            }
        }
        /// The size of each frame tracked whose rows wait for final IDs: a stream may change its
        /// resolution on the way, and a row gives its own frame's size.
        var frameSizes: [Int: ImageFacts] = [:]
        /// Emits the rows of the frames whose IDs are final.
        func emitFinal(_ tracked: [TrackedVideoFrame]) {
            for frame in tracked {
                let facts =
                    frameSizes.removeValue(forKey: frame.index) ?? ImageFacts(width: video.width, height: video.height)
                for record in Self.records(frame, source: path, image: facts) { emit(record) }
                if frame.faces.isEmpty { emitFaceless(Self.faceless(frame, source: path, image: facts)) }
            }
        }
        do throws(FaceKitError) {
            while let (frame, analyse) = try frames.next() {
                defer { line.update(framesRead: frames.framesRead, framesAnalysed: framesAnalysed) }
                guard analyse, let image = frame.image else { continue }
                if finalIDs {
                    frameSizes[frame.index] = ImageFacts(width: image.width, height: image.height)
                    emitFinal(try track(image, index: frame.index, timestampMs: frame.timestampMs))
                } else {
                    describing.append((frame, try processInBackground(image, timestampMs: frame.timestampMs)))
                }
                framesAnalysed += 1
                if let left = framesLeft {
                    framesLeft = left - 1
                    if left == 1 {
                        try emitDescribed(waiting: true)
                        return (framesAnalysed, nil)
                    }
                }
                try emitDescribed(waiting: false)
            }
            try emitDescribed(waiting: true)
            if finalIDs { emitFinal(try finishVideo()) }
        } catch {
            // The frames tracked before the failure are kept, as far as they can be described
            // (none are left after a frame that could not be described).
            try? emitDescribed(waiting: true)
            if finalIDs { emitFinal((try? finishVideo()) ?? []) }
            return (framesAnalysed, video.failureMessage(error, kept: kept))
        }
        if framesAnalysed == 0, !video.endedEarly {
            return (0, video.noFrameChosenMessage(
                sampler: sampler, framesRead: frames.framesRead, lastTimestampMs: frames.previousTimestampMs))
        }
        return (framesAnalysed, frames.passedEnd ? nil : video.incompleteReadingMessage(kept: kept))
    }

    /// ``trackVideo(at:maxPixels:sampler:progress:kept:framesLeft:finalIDs:emit:emitFaceless:)`` to the video's end.
    func trackVideo(
        at path: String, maxPixels: Int, sampler: FrameSampler, progress: (output: any TextOutput, enabled: Bool),
        kept: String, finalIDs: Bool = false, emit: (FaceRecord) -> Void
    ) -> (framesAnalysed: Int, failure: String?) {
        var unlimited: Int?
        return trackVideo(
            at: path, maxPixels: maxPixels, sampler: sampler, progress: progress, kept: kept, framesLeft: &unlimited,
            finalIDs: finalIDs, emit: emit)
    }
}
