import Foundation
import FaceKit

/// `facekit analyze`: finds faces in still images and writes one CSV row or JSON object per face.
///
/// Inputs that fail (missing, unreadable, not an image, too large) are reported on standard
/// error, one line each, and skipped; the rest are still written. Exit status 1 if any input
/// failed, 0 otherwise, 64 for a wrong command line.
public struct AnalyzeCommand: ParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "analyze",
            abstract: "Find faces in still images and write one row per face.",
            discussion: """
                Folders are searched recursively for files named .jpg, .jpeg, .jpe, .png, .bmp, .dib, \
                .tif, .tiff or .webp, in path order. A file that cannot be analysed is reported on \
                standard error and skipped; the exit status is then 1.
                """)
    }

    public static var arguments: [ArgumentDefinition<AnalyzeCommand>] {
        DetectionFlags.arguments(
            \.detection, contoursHelp: "Compute the 15 contours of the largest face; only JSON Lines output shows them."
        )
            + [
                .option(
                    "format", \.format, valueName: "format", help: "Write one CSV row or one JSON object per face."),
                .option(
                    "output", \.output, valueName: "file",
                    help: "Write to this file, replaced only once complete, instead of standard output."),
                .option("max-pixels", \.maxPixels, valueName: "n", help: "Refuse images with more pixels than this."),
            .option("jobs", \.jobs, valueName: "n", help: "Analyse this many images at once, one detector each."),
            .flag("quiet", \.quiet, help: "Do not show progress and the closing summary on a terminal."),
                .positional("path", \.paths, help: "An image file, or a folder to search for images."),
            ]
    }

    public var detection = DetectionFlags()
    public var format: OutputFormat = .csv
    public var output: String?
    public var maxPixels = FaceImage.defaultMaxPixels
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    public var quiet = false
    public var paths: [String] = []

    public init() {}

    public func validate() throws(CommandError) {
        guard jobs >= 1 else {
            throw CommandError("The value '\(jobs)' is invalid for '--jobs <n>': it must be at least 1")
        }
        guard maxPixels > 0 else {
            throw CommandError(
                "The value '\(maxPixels)' is invalid for '--max-pixels <n>': it must be a positive number of pixels")
        }
        if output?.isEmpty == true { throw CommandError("The value '' is invalid for '--output <file>'") }
        try detection.validate(detection.detectorOptions)
    }

    public func run(_ context: CommandContext) throws -> ExitStatus {
        let file = try output.map { path throws(OutputError) in try AtomicFileOutput(path: path) }
        let sink: any TextOutput = file ?? context.stdout
        let detectors: [FaceDetector]
        do {
            // One detector per worker: dlib's detectors are not thread-safe.
            detectors = try (0..<jobs).map { _ throws(FaceKitError) in
                try FaceDetector(options: detection.detectorOptions, models: detection.models)
            }
        } catch {
            file?.discard()
            if case .invalidOption = error { throw DetectionFlags.usageError(error) }
            throw error
        }
        let writer = format.writer(
            columns: FaceRecordColumns(landmarks: detection.landmarks, contours: detection.contours), output: sink)
        writer.writeHeader()
        let entries = paths.flatMap(ImageFileWalker.expand)
        let maxPixels = self.maxPixels
        let queue = OrderedWorkQueue(workers: detectors.map(UncheckedDetector.init), window: 4 * jobs) {
            (worker: UncheckedDetector, entry: ImageFileWalker.Entry) -> Result<[Face], FailedInput> in
            if let failure = entry.failureDescription { return .failure(FailedInput(description: failure)) }
            do throws(FaceKitError) {
                return .success(try worker.detector.process(FaceImage(contentsOfFile: entry.path, maxPixels: maxPixels)))
            } catch {
                return .failure(FailedInput(description: error.description))
            }
        }
        let progress = CollectionProgress(
            output: context.stderr, enabled: !quiet && context.stderr.isTerminal, total: entries.count)
        queue.run(inputs: entries) { index, result in
            switch result {
            case .success(let faces):
                for (faceIndex, face) in faces.enumerated() {
                    writer.write(FaceRecord(source: entries[index].path, index: faceIndex, face: face))
                }
                progress.record(faces: faces.count, failed: false)
            case .failure(let failure):
                progress.interrupt { context.stderr.write("facekit: \(failure.description)\n") }
                progress.record(faces: 0, failed: true)
            }
        }
        progress.finish()
        let failed = progress.failures > 0
        if let file {
            try file.commit()
        } else {
            sink.flush()
        }
        return failed ? .failure : .success
    }
}

extension FaceDetectorOptions.PerformanceMode: ExpressibleByArgument {}

/// A detector handed to exactly one worker thread of an ``OrderedWorkQueue``.
struct UncheckedDetector: @unchecked Sendable {
    let detector: FaceDetector
}

/// An input that could not be analysed, with the line reported for it.
struct FailedInput: Error {
    var description: String
}
