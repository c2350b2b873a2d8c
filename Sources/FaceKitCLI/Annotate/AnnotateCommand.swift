import FaceKit
import Foundation
import FaceKitArguments

/// `facekit annotate`: writes copies of images and videos with what FaceKit found drawn on them.
///
/// Images are analysed like `facekit analyze` does, videos like `facekit track` (every frame,
/// or those `--every`, `--start` and `--end` choose, with tracking IDs; the copy holds the frames
/// analysed); a live source (``LiveInput``) in one pass, as frames come (``LiveAnnotate``). Each
/// copy goes to the output folder under the input's name; standard
/// output lists the files written, and standard error (unless `--quiet`) how many faces were
/// drawn in each (``AnnotationCount``). An input that fails is reported on standard error, one line,
/// and the others are still annotated; the exit status is then 1 (64 for a wrong command line).
struct AnnotateCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "annotate",
            abstract: "Write copies of images and videos with the faces found drawn on them.",
            discussion: """
                Each input is copied to the --output folder under its own name (files found in a \
                folder keep their path below it); images keep their format, videos their \
                container. Files named .mp4, .mov, .avi, .mkv, .m4v or .webm are read as videos \
                and tracked, every frame unless --every, --start or --end choose fewer (the copy \
                holds the frames analysed); everything else as an image. --draw chooses the marks; \
                by default boxes, pose axes, tracking IDs and whatever --landmarks, --contours and \
                --classify compute. Contours cannot be combined with tracking, so not with videos. \
                A live source (-, a stream URL, /dev/video*) is drawn as its frames come into one \
                copy, <folder>/<name>.mkv, finished when the stream ends, stalls or gets Ctrl-C.
                """)
    }

    static var arguments: [ArgumentDefinition<AnnotateCommand>] {
        DetectionFlags.arguments(
            \.detection, contoursHelp: "Compute and draw the 15 contours of the largest face (images only).")
            + PeopleFlags.arguments(\.people, descriptors: false)
            + [
                .option(
                    "draw", \.draw, valueName: "marks",
                    help: "Draw these, comma-separated: boxes, landmarks, contours, pose, ids, labels, or all."),
                .option("output", \.output, valueName: "folder", help: "Write the annotated copies into this folder.")
                    .required(),
                .option(
                    "quality", \.quality, valueName: "1-100", help: "JPEG and WebP quality of the annotated images."),
                .option("max-pixels", \.maxPixels, valueName: "n", help: "Refuse images with more pixels than this."),
                .flag("quiet", \.quiet, help: "Do not show progress on a terminal, nor the faces drawn in each file."),
            ]
            + VideoFlags.arguments(\.video)
            + FrameSelectionFlags.arguments(\.frames)
            + LiveFlags.arguments(\.live)
            + [
                .positional(
                    "input", \.inputs,
                    help: "An image, a video, a folder to search for images, or one live source: "
                        + "- (standard input), a stream URL (udp://, rtsp://, http://, ...) or a camera (/dev/video0)."),
            ]
    }

    var detection = DetectionFlags()
    var people = PeopleFlags()
    var draw: AnnotationLayers?
    var output: String?
    var quality = 92
    var maxPixels = FaceImage.defaultMaxPixels
    var quiet = false
    var video = VideoFlags()
    var frames = FrameSelectionFlags()
    var live = LiveFlags()
    var inputs: [String] = []

    init() {}

    /// What is drawn: `--draw`, or boxes, pose and IDs plus what the detection flags compute.
    var layers: Set<AnnotationLayer> {
        if let draw { return draw.layers }
        var layers: Set<AnnotationLayer> = [.boxes, .pose, .ids]
        if detection.landmarks { layers.insert(.landmarks) }
        if detection.contours { layers.insert(.contours) }
        if detection.classify { layers.insert(.labels) }
        return layers
    }

    /// The detection flags, with what `--draw` needs turned on.
    var effectiveDetection: DetectionFlags {
        var flags = detection
        let layers = self.layers
        if layers.contains(.landmarks) { flags.landmarks = true }
        if layers.contains(.contours) { flags.contours = true }
        if layers.contains(.labels) { flags.classify = true }
        return flags
    }

    /// The options for images: tracking off.
    var imageOptions: FaceDetectorOptions {
        var options = effectiveDetection.detectorOptions
        options.descriptorMode = people.known != nil ? .all : .none
        return options
    }

    /// The options for videos: tracking on, as `facekit track`.
    var videoOptions: FaceDetectorOptions {
        var options = effectiveDetection.detectorOptions
        options.isTrackingEnabled = true
        return options
    }

    func validate() throws(CommandError) {
        // The parser refuses a command line without --output (it is required()).
        guard let output, !output.isEmpty else { throw CommandError("The value '' is invalid for '--output <folder>'") }
        try people.validate(format: nil)
        guard (1...100).contains(quality) else {
            throw CommandError("The value '\(quality)' is invalid for '--quality <1-100>': it must be from 1 to 100")
        }
        try WorkerFlags.validate(maxPixels: maxPixels)
        try validateLiveSource()
        for input in inputs {
            if let problem = AnnotationTarget.outputFolderProblem(input: input, outputFolder: output) {
                throw CommandError(problem)
            }
        }
        if effectiveDetection.contours,
            let video = inputs.first(where: { AnnotationTarget.isVideoFileName($0) || LiveInput.source(named: $0) != nil })
        {
            let flag =
                detection.contours
                ? "--contours" : "--draw " + (draw?.layers == Set(AnnotationLayer.allCases) ? "all" : "contours")
            throw CommandError(
                "'\(flag)' cannot be combined with tracking, which 'facekit annotate' does for videos (\(video)): "
                    + "ML Kit computes contours only without tracking (annotate the videos without contours)")
        }
        try video.validate()
        try frames.validate()
        try effectiveDetection.validate(imageOptions)
    }

    /// The live source to annotate, when the input is one (``LiveInput``).
    var liveSource: VideoReader.LiveSource? { inputs.count == 1 ? LiveInput.source(named: inputs[0]) : nil }

    /// A live source is the only input, and takes only the options that make sense for a stream.
    private func validateLiveSource() throws(CommandError) {
        try live.validate()
        guard let first = inputs.first(where: { LiveInput.source(named: $0) != nil }) else { return }
        guard inputs.count == 1 else {
            throw CommandError(
                "'\(MessageText.escaped(first))' is a live source: annotate it on its own, not with other inputs")
        }
        let refused: [(Bool, String, String)] = [
            (frames.start != 0 || frames.end != nil, "--start/--end", "a stream is annotated from when it is opened until it ends"),
            (people.known != nil, "--known", "a live source's faces carry provisional IDs, and people are named by their final ones"),
        ]
        for (given, option, reason) in refused where given {
            throw CommandError("'\(option)' cannot be used with the live source '\(MessageText.escaped(first))': \(reason)")
        }
    }

    func run(_ context: CommandContext) throws -> ExitStatus {
        try run(context, hooks: AnnotateHooks())
    }

    /// ``run(_:)`` with what tests watch: the faces drawn on each frame of a video.
    func run(_ context: CommandContext, hooks: AnnotateHooks) throws -> ExitStatus {
        if let liveSource { return try LiveAnnotate(command: self, source: liveSource).run(context) }
        let folder = output!
        var targets: [Result<AnnotationTarget, FailedInput>] = []
        for input in inputs { targets += AnnotationTarget.expand(input, outputFolder: folder) }
        let hasImages = targets.contains { (try? $0.get())?.isVideo == false }
        let hasVideos = targets.contains { (try? $0.get())?.isVideo == true }
        // Models load before anything is written, so a missing model stops the run at once.
        let detector: FaceDetector?
        let tracker: FaceTracker?
        let known: KnownPeople?
        do {
            // One landmark model in memory for both.
            let photos = try FaceDetector(options: imageOptions, models: detection.models)
            detector = hasImages ? photos : nil
            tracker = hasVideos
                ? try video.tracker(
                    detector: FaceDetector(options: videoOptions, sharingModelsWith: photos), models: detection.models,
                    reidentification: people.known == nil ? .automatic : .required, every: frames.every)
                : nil
            known = try people.knownPeople(detector: photos, warnings: context.stderr)
        } catch let error as FaceKitError {
            if case .invalidOption = error { throw DetectionFlags.usageError(error) }
            throw error
        }
        if let note = tracker?.reidentificationNote { context.stderr.writeDiagnostic(note) }
        // Every input file, so that no output replaces one.
        let inputFiles = OutputOverlap.Inputs(targets.compactMap { try? $0.get().input })
        var written: [String: String] = [:]  // output path -> the input written there
        var failed = false
        for result in targets {
            let outcome: String?
            switch result {
            case .failure(let failure):
                outcome = failure.description
            case .success(let target):
                if let earlier = written[target.outputPath] {
                    outcome = "\(target.input): not annotated: \(target.outputPath) is already written for \(earlier)"
                } else if let problem = target.overwriteProblem(inputs: inputFiles) {
                    outcome = problem
                } else {
                    written[target.outputPath] = target.input
                    let result: AnnotationOutcome
                    if target.isVideo {
                        tracker!.reset()
                        result = annotateVideo(target, with: tracker!, known: known, context: context, hooks: hooks)
                    } else {
                        result = annotateImage(target, with: detector!, known: known)
                    }
                    if let drawn = result.drawn {
                        context.stdout.write(MessageText.escaped(target.outputPath) + "\n")
                        context.stdout.flush()
                        if !quiet { context.stderr.writeDiagnostic(drawn.line(for: target.outputPath)) }
                    }
                    outcome = result.failure
                }
            }
            if let message = outcome {
                context.stderr.writeDiagnostic(message)
                failed = true
            }
        }
        return failed ? .failure : .success
    }

    /// The annotation policy for an image or frame of this size.
    private func annotation(width: Int, height: Int) -> FaceAnnotation {
        FaceAnnotation(layers: layers, style: AnnotationStyle(imageWidth: width, imageHeight: height))
    }

    /// `image` with `faces` drawn on it.
    func annotated(_ image: FaceImage, faces: [Face], names: [String?] = []) throws(FaceKitError) -> FaceImage {
        let canvas = try ImageCanvas(image: image)
        try annotation(width: image.width, height: image.height).draw(faces, names: names, on: canvas)
        return try canvas.image()
    }

    /// What was drawn into an input's annotated copy, `nil` when none was written, and the
    /// message to report, if any.
    private struct AnnotationOutcome {
        var drawn: AnnotationCount?
        var failure: String?
    }

    /// Annotates one image.
    private func annotateImage(_ target: AnnotationTarget, with detector: FaceDetector, known: KnownPeople?)
        -> AnnotationOutcome
    {
        let data: Data
        let faces: [Face]
        do throws(FaceKitError) {
            let image = try FaceImage(contentsOfFile: target.input, maxPixels: maxPixels)
            faces = try detector.process(image)
            let names = known.map { known in faces.map { known.match($0)?.name } } ?? []
            data = try annotated(image, faces: faces, names: names).encoded(
                fileExtension: target.imageFormat, quality: quality)
        } catch {
            return AnnotationOutcome(drawn: nil, failure: error.description)
        }
        do throws(OutputError) {
            try AnnotationFileWriter.write(data, to: target)
        } catch {
            return AnnotationOutcome(drawn: nil, failure: "\(target.input): not annotated: \(error.description)")
        }
        return AnnotationOutcome(drawn: AnnotationCount(frames: nil, faces: faces.count))
    }

    /// Annotates the frames of one video that `--every`, `--start` and `--end` choose (every
    /// frame by default) and writes only those, at the input's frame rate divided by `--every`,
    /// so that the copy plays at the input's speed. The video is read twice (``TrackedFrames``):
    /// tracked first, then decoded again and drawn, so that each face carries the ID `track`
    /// writes for it, known only once tracks are joined at the end. A video that stops decoding,
    /// or a frame that cannot be analysed, ends it early: the frames before are kept, and the
    /// failure says where.
    private func annotateVideo(
        _ target: AnnotationTarget, with tracker: FaceTracker, known: KnownPeople?, context: CommandContext,
        hooks: AnnotateHooks
    ) -> AnnotationOutcome {
        func failed(_ message: String) -> AnnotationOutcome { AnnotationOutcome(drawn: nil, failure: message) }
        let video: VideoReader
        do {
            video = try VideoReader(contentsOfFile: target.input, maxPixels: maxPixels)
        } catch {
            return failed(error.description)
        }
        let copy: AnnotatedVideoCopy
        do {
            copy = try AnnotatedVideoCopy(
                target, framesPerSecond: (video.framesPerSecond > 0 ? video.framesPerSecond : 25) / Double(frames.every),
                width: video.width, height: video.height)
        } catch {
            return failed(error.description)
        }
        // First pass: the tracking, as `track` does it, for the IDs the video ends with.
        let estimate = frames.sampler.estimate(
            declaredFrames: video.declaredFrameCount, framesPerSecond: video.framesPerSecond)
        let showsProgress = !quiet && context.stderr.isTerminal
        let trackingLine = ProgressLine(
            output: context.stderr, enabled: showsProgress, source: target.input, estimate: estimate)
        let tracked = TrackedFrames.track(
            SampledFrameReader(video: video, sampler: frames.sampler), with: tracker, known: known,
            progress: trackingLine)
        trackingLine.finish()
        // Second pass: the same frames decoded again and drawn with those IDs.
        var failure = tracked.failure
        var facesDrawn = 0
        let drawingLine = ProgressLine(
            output: context.stderr, enabled: showsProgress, source: target.input + " (drawing)", estimate: estimate)
        defer { drawingLine.finish() }
        do throws(FaceKitError) {
            var sampled = SampledFrameReader(
                video: try VideoReader(contentsOfFile: target.input, maxPixels: maxPixels), sampler: frames.sampler)
            while copy.framesWritten < tracked.framesAnalysed, let (frame, analyse) = try sampled.next() {
                if analyse, let image = frame.image {
                    let faces = tracked.faces[frame.index] ?? []
                    let names = known != nil ? faces.map { $0.person?.name } : []
                    hooks.frameDrawn?(frame.index, faces.map { $0.face })
                    try copy.write(annotated(image, faces: faces.map { $0.face }, names: names))
                    facesDrawn += faces.count
                }
                drawingLine.update(framesRead: sampled.framesRead, framesAnalysed: copy.framesWritten)
            }
        } catch {
            failure = failure ?? "\(error.description) (while drawing frame \(copy.framesWritten + 1) of \(tracked.framesAnalysed); the frames before it were written)"
        }
        if copy.framesWritten == 0, failure == nil {
            // A video opens only when its first frame decodes: the range chose no frame.
            copy.discard()
            let start = frames.start.defaultValueDescription
            let range =
                frames.end.map { "from --start to --end (\(start) to \($0.defaultValueDescription) s)" }
                ?? "from --start (\(start) s) on"
            return failed("\(target.input): not annotated: none of its frames is shown \(range)")
        }
        do {
            try copy.finish()
        } catch {
            return failed(error.description)
        }
        return AnnotationOutcome(
            drawn: AnnotationCount(frames: copy.framesWritten, faces: facesDrawn),
            failure: failure ?? (tracked.passedEnd ? nil : video.incompleteReadingMessage(kept: "frames")))
    }
}

/// What tests watch in a run of ``AnnotateCommand``.
struct AnnotateHooks {
    /// Called with each video frame's index and the faces drawn on it, as they are drawn.
    var frameDrawn: ((_ frame: Int, _ faces: [Face]) -> Void)?
}
