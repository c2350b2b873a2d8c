import FaceKit
import FaceKitArguments
import Foundation

/// The analysis `facekit report` runs itself on images, folders and videos given instead of
/// tables: photos as `analyze` does (one detector per job), videos as `track` does. Faces come
/// back as ``ReportFace`` rows, failures as the lines `analyze` and `track` would print. A video's
/// tracks are joined across cuts as `track` joins them, and with `--known` photos' faces and
/// videos' tracks are named as `analyze --known` and `track --known` name them. Every face of a
/// photo, and each track by its best shots as `group` describes it, gets a descriptor, by which
/// the report groups them into people (``ReportPeople``).
struct ReportAnalysis {
    var detection: DetectionFlags
    var people: PeopleFlags
    var video: VideoFlags
    var frames: FrameSelectionFlags
    var workers: WorkerFlags
    /// The report's folder, whose pictures (an earlier report's) are not analysed as photos, nor
    /// those of the hidden folder a report into it is built in (``ReportFolder``).
    var outputFolder: String

    struct Result {
        var faces: [ReportFace] = []
        var photosAnalysed: [String] = []
        var failures: [ReportCollection.Failure] = []
        /// Each video's tracks' descriptors, by tracking ID (``VideoTrackFaces/describe``).
        var trackDescriptors: [String: [Int: FaceDescriptor]] = [:]
    }

    /// Analyses `paths` (files and folders; folders give their images and videos, in path order),
    /// showing the photos' progress as `analyze` does when `showProgress`.
    func run(_ paths: [String], context: CommandContext, showProgress: Bool) throws -> Result {
        var result = Result()
        var photos: [ImageFileWalker.Entry] = []
        var videos: [String] = []
        let outputPrefix = AnnotationTarget.resolvingLinks(outputFolder) + "/"
        for entry in ImageFileWalker(
            paths: paths, extensions: ImageFileWalker.imageExtensions.union(ImageFileWalker.videoExtensions))
        {
            if let failure = entry.failureDescription {
                result.failures.append(.init(source: entry.path, reason: Self.reason(failure, of: entry.path)))
            } else if case let resolved = AnnotationTarget.resolvingLinks(entry.path),
                resolved.hasPrefix(outputPrefix) || ReportFolder.isInsideBuildingFolder(resolved, target: outputFolder)
            {
                continue
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
            // The People page groups faces by their descriptors (and --known names them): every
            // photo face gets one, and this detector describes the videos' tracks' best shots.
            options.descriptorMode = .all
            first = try FaceDetector(options: options, models: detection.models)
        } catch {
            if case .invalidOption = error { throw DetectionFlags.usageError(error) }
            throw error
        }
        let known = try people.knownPeople(detector: first, warnings: context.stderr)
        if !photos.isEmpty {
            workers.configureBLAS()
            let detectors = try [first] + (1..<max(1, min(workers.jobs, photos.count))).map { _ throws(FaceKitError) in
                try FaceDetector(sharingModelsWith: first)
            }
            let maxPixels = workers.maxPixels
            let queue = PhotoQueue(detectors: detectors, window: 4 * detectors.count)
            let total = photos.count
            let progress = CollectionProgress(output: context.stderr, enabled: showProgress, total: { total })
            queue.run(inputs: PhotoQueue.photos(photos, detector: first, maxPixels: maxPixels)) { _, photo, outcome in
                let entry = photo.input
                switch outcome {
                case .success(let (faces, _)):
                    progress.record(faces: faces.count, failed: false)
                    result.photosAnalysed.append(entry.path)
                    for (index, face) in faces.enumerated() {
                        result.faces.append(ReportFace(record: FaceRecord(source: entry.path, index: index, face: face, person: known?.match(face))))
                    }
                case .failure(let failure):
                    progress.interrupt { context.stderr.writeDiagnostic(failure.description) }
                    progress.record(faces: 0, failed: true)
                    result.failures.append(.init(source: entry.path, reason: Self.reason(failure.description, of: entry.path)))
                }
            }
            progress.finish()
        }
        if !videos.isEmpty {
            var options = detection.detectorOptions
            options.isTrackingEnabled = true
            options.descriptorMode = .none
            let tracker = try video.tracker(
                detector: FaceDetector(options: options, sharingModelsWith: first), models: detection.models,
                reidentification: known == nil ? .automatic : .required, every: frames.every)
            if let note = tracker.reidentificationNote { context.stderr.writeDiagnostic(note) }
            for path in videos {
                tracker.reset()
                var records: [FaceRecord] = []
                var failure = tracker.trackVideo(
                    at: path, maxPixels: workers.maxPixels, sampler: frames.sampler, progress: (context.stderr, showProgress), kept: "faces"
                ) { records.append($0) }.failure
                let joined = TrackCommand.joined(records, tracker: tracker, known: known)
                result.faces += joined.map(ReportFace.init(record:))
                do throws(FaceKitError) {
                    result.trackDescriptors[path] = try Self.trackDescriptors(
                        joined, in: path, maxPixels: workers.maxPixels, describer: first)
                } catch {
                    failure = failure ?? "\(error.description) (while describing the tracks)"
                }
                if let failure {
                    context.stderr.writeDiagnostic(failure)
                    result.failures.append(.init(source: path, reason: Self.reason(failure, of: path)))
                }
            }
        }
        return result
    }

    /// Each track's descriptor, the mean of its best shots', as `group` describes a track: the
    /// frames of those shots read again and described (``VideoTrackFaces/describe``).
    static func trackDescriptors(
        _ records: [FaceRecord], in path: String, maxPixels: Int, describer: FaceDetector
    ) throws(FaceKitError) -> [Int: FaceDescriptor] {
        var tracks: [Int: VideoTrackFaces.TrackShots] = [:]
        for record in records { VideoTrackFaces.add(record, to: &tracks) }
        return try VideoTrackFaces.describe(tracks, in: path, maxPixels: maxPixels, with: describer)
            .compactMapValues { $0.isEmpty ? nil : FaceDescriptor.mean(of: $0) }
    }

    /// A failure line without the path in front, which the report's table shows beside it.
    static func reason(_ line: String, of path: String) -> String {
        line.hasPrefix(path + ": ") ? String(line.dropFirst(path.count + 2)) : line
    }
}
