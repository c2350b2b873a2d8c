import FaceKit
import FaceKitArguments

/// Gathers the faces `facekit group` clusters, input by input in order: photos analysed in
/// parallel (``OrderedWorkQueue``, one detector per job), videos tracked (``VideoTrackFaces``),
/// JSON Lines read (``DescriptorLines``). Each failure is reported on standard error and counted.
/// The detectors are loaded only when a photo, a video or `--known` needs them. On a terminal a
/// progress line counts the inputs done, as `analyze`'s does (``CollectionProgress``).
final class GroupAnalysis {
    let command: GroupCommand
    let stderr: any TextOutput
    let progress: CollectionProgress
    private(set) var faces: [GroupedFace] = []
    private(set) var failures = 0
    private var loadedDetectors: [FaceDetector]?
    private var loadedTracker: FaceTracker?

    /// `inputs` is the number of photos, videos and JSON Lines files to come, for the progress line.
    init(command: GroupCommand, stderr: any TextOutput, inputs: Int, showsProgress: Bool) {
        self.command = command
        self.stderr = stderr
        progress = CollectionProgress(output: stderr, enabled: showsProgress, total: { inputs })
    }

    func add(_ batch: GroupInput.Batch) throws {
        switch batch {
        case .descriptorLines(let path): addDescriptorLines(path)
        case .photos(let entries): try addPhotos(entries)
        case .video(let path): try addVideo(path)
        }
    }

    /// The known people of `--known`, described by the first detector; `nil` without it.
    func knownPeople() throws -> KnownPeople? {
        guard command.people.known != nil else { return nil }
        return try command.people.knownPeople(detector: try detectors()[0], warnings: stderr)
    }

    private func report(_ message: String) {
        progress.interrupt { stderr.writeDiagnostic(message) }
        failures += 1
    }

    private func addDescriptorLines(_ path: String) {
        do throws(FailedInput) {
            let contents = try DescriptorLines.read(path)
            faces += contents.faces
            for line in contents.skippedLines { report(line) }
            progress.record(faces: contents.faces.count, failed: false)
        } catch {
            report(error.description)
            progress.record(faces: 0, failed: true)
        }
    }

    private func addPhotos(_ entries: [ImageFileWalker.Entry]) throws {
        let maxPixels = command.workers.maxPixels
        let detectors = try detectors()
        let queue = PhotoQueue(detectors: detectors, window: 4 * command.workers.jobs)
        queue.run(inputs: PhotoQueue.photos(entries, detector: detectors[0], maxPixels: maxPixels)) { _, photo, result in
            let entry = photo.input
            switch result {
            case .success(let (found, image)):
                for (index, face) in found.enumerated() {
                    faces.append(GroupedFace(record: FaceRecord(source: entry.path, index: index, face: face, image: image)))
                }
                progress.record(faces: found.count, failed: false)
            case .failure(let failure):
                report(failure.description + (GroupInput.tableHint(for: entry.path).map { "; " + $0 } ?? ""))
                progress.record(faces: 0, failed: true)
            }
        }
    }

    private func addVideo(_ path: String) throws {
        let tracker = try tracker()
        let describer = try detectors()[0]
        // The video's own line takes the terminal's line while it is tracked.
        progress.interrupt {}
        let result = VideoTrackFaces.faces(
            in: path, maxPixels: command.workers.maxPixels, tracker: tracker, describer: describer,
            frames: command.frames,
            progress: (stderr, progress.enabled))
        faces += result.faces
        if let failure = result.failure { report(failure) }
        progress.record(faces: result.faces.count, failed: result.failure != nil)
    }

    /// The tracker of every video, made on first use with the first detector's landmark model.
    private func tracker() throws -> FaceTracker {
        if let loadedTracker { return loadedTracker }
        var options = command.detection.detectorOptions
        options.isTrackingEnabled = true
        let made = try command.video.tracker(
            detector: FaceDetector(options: options, sharingModelsWith: try detectors()[0]),
            models: command.detection.models, reidentification: .automatic, every: command.frames.every)
        loadedTracker = made
        return made
    }

    /// One detector per job, sharing one landmark model, loaded on first use.
    private func detectors() throws -> [FaceDetector] {
        if let loadedDetectors { return loadedDetectors }
        command.workers.configureBLAS()
        do {
            let first = try FaceDetector(options: command.detectorOptions, models: command.detection.models)
            let all = try [first]
                + (1..<command.workers.jobs).map { _ throws(FaceKitError) in try FaceDetector(sharingModelsWith: first) }
            loadedDetectors = all
            return all
        } catch {
            if case .invalidOption = error { throw DetectionFlags.usageError(error) }
            throw error
        }
    }
}
