import FaceKit
import FaceKitArguments
import Foundation

/// The analysis `facekit report` runs itself on images, folders and videos given instead of
/// tables: photos as `analyze` does (one detector per job), videos as `track` does. Faces come
/// back as ``ReportFace`` rows, failures as the lines `analyze` and `track` would print. With
/// `--known`, photos' faces are named as `analyze --known` names them.
struct ReportAnalysis {
    var detection: DetectionFlags
    var people: PeopleFlags
    var video: VideoFlags
    var frames: FrameSelectionFlags
    var maxPixels: Int
    var jobs: Int

    struct Result {
        var faces: [ReportFace] = []
        var photosAnalysed: [String] = []
        var failures: [ReportCollection.Failure] = []
    }

    /// Analyses `paths` (files and folders; folders give their images and videos, in path order).
    func run(_ paths: [String], context: CommandContext, quiet: Bool) throws -> Result {
        var result = Result()
        var photos: [ImageFileWalker.Entry] = []
        var videos: [String] = []
        for entry in ImageFileWalker(
            paths: paths, extensions: ImageFileWalker.imageExtensions.union(ImageFileWalker.videoExtensions))
        {
            if let failure = entry.failureDescription {
                result.failures.append(.init(source: entry.path, reason: Self.reason(failure, of: entry.path)))
            } else if ImageFileWalker.hasExtension(entry.path, in: ImageFileWalker.videoExtensions) {
                videos.append(entry.path)
            } else {
                photos.append(entry)
            }
        }
        if photos.isEmpty && videos.isEmpty { return result }
        let first: FaceDetector
        do {
            var options = detection.detectorOptions
            if people.known != nil, !photos.isEmpty { options.descriptorMode = .all }
            first = try FaceDetector(options: options, models: detection.models)
        } catch {
            if case .invalidOption = error { throw DetectionFlags.usageError(error) }
            throw error
        }
        if !photos.isEmpty {
            if jobs > 1 { BLASThreads.set(1) }
            let detectors = try [first] + (1..<max(1, min(jobs, photos.count))).map { _ throws(FaceKitError) in
                try FaceDetector(sharingModelsWith: first)
            }
            let known = try people.knownPeople(detector: first, warnings: context.stderr)
            let maxPixels = self.maxPixels
            let queue = OrderedWorkQueue(workers: detectors, window: 4 * detectors.count) {
                (detector: FaceDetector, entry: ImageFileWalker.Entry) -> Swift.Result<[Face], FailedInput> in
                do throws(FaceKitError) {
                    return .success(try detector.process(contentsOfFile: entry.path, maxPixels: maxPixels))
                } catch {
                    return .failure(FailedInput(description: error.description))
                }
            }
            queue.run(inputs: photos) { _, entry, outcome in
                switch outcome {
                case .success(let faces):
                    result.photosAnalysed.append(entry.path)
                    for (index, face) in faces.enumerated() {
                        result.faces.append(ReportFace(record: FaceRecord(source: entry.path, index: index, face: face, person: known?.match(face))))
                    }
                case .failure(let failure):
                    if !quiet { context.stderr.writeDiagnostic(failure.description) }
                    result.failures.append(.init(source: entry.path, reason: Self.reason(failure.description, of: entry.path)))
                }
            }
        }
        if !videos.isEmpty {
            var options = detection.detectorOptions
            options.isTrackingEnabled = true
            options.descriptorMode = .none
            let tracker = try video.tracker(
                detector: FaceDetector(options: options, sharingModelsWith: first), models: detection.models,
                reidentification: .automatic, every: frames.every)
            for path in videos {
                tracker.reset()
                if let failure = track(path, with: tracker, into: &result.faces) {
                    if !quiet { context.stderr.writeDiagnostic(failure) }
                    result.failures.append(.init(source: path, reason: Self.reason(failure, of: path)))
                }
            }
        }
        return result
    }

    /// Tracks one video; the message to report when it could not be read to its end.
    private func track(_ path: String, with tracker: FaceTracker, into faces: inout [ReportFace]) -> String? {
        let video: VideoReader
        do {
            video = try VideoReader(contentsOfFile: path)
        } catch {
            return error.description
        }
        var sampled = SampledFrameReader(video: video, sampler: frames.sampler)
        do {
            while let (frame, analyse) = try sampled.next() {
                guard analyse, let image = frame.image else { continue }
                for (index, face) in try tracker.process(image, timestampMs: frame.timestampMs).enumerated() {
                    faces.append(
                        ReportFace(
                            record: FaceRecord(
                                source: path, frame: frame.index, timestampMilliseconds: frame.timestampMs, index: index,
                                face: face)))
                }
            }
        } catch {
            return video.failureMessage(error, kept: "faces")
        }
        return sampled.passedEnd ? nil : video.stoppedDecodingMessage(kept: "faces")
    }

    /// A failure line without the path in front, which the report's table shows beside it.
    static func reason(_ line: String, of path: String) -> String {
        line.hasPrefix(path + ": ") ? String(line.dropFirst(path.count + 2)) : line
    }
}
