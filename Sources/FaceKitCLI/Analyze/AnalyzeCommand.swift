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
                .positional("path", \.paths, help: "An image file, or a folder to search for images."),
            ]
    }

    public var detection = DetectionFlags()
    public var format: OutputFormat = .csv
    public var output: String?
    public var maxPixels = FaceImage.defaultMaxPixels
    public var paths: [String] = []

    public init() {}

    public func validate() throws(CommandError) {
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
        let detector: FaceDetector
        do {
            detector = try FaceDetector(options: detection.detectorOptions, models: detection.models)
        } catch {
            file?.discard()
            if case .invalidOption = error { throw DetectionFlags.usageError(error) }
            throw error
        }
        let writer = format.writer(
            columns: FaceRecordColumns(landmarks: detection.landmarks, contours: detection.contours), output: sink)
        writer.writeHeader()
        var failed = false
        for path in paths {
            for entry in ImageFileWalker.expand(path) {
                if let failure = entry.failureDescription {
                    context.stderr.write("facekit: \(failure)\n")
                    failed = true
                    continue
                }
                do {
                    let image = try FaceImage(contentsOfFile: entry.path, maxPixels: maxPixels)
                    for (index, face) in try detector.process(image).enumerated() {
                        writer.write(FaceRecord(source: entry.path, index: index, face: face))
                    }
                } catch {
                    context.stderr.write("facekit: \(error.description)\n")
                    failed = true
                }
            }
        }
        if let file {
            try file.commit()
        } else {
            sink.flush()
        }
        return failed ? .failure : .success
    }
}

extension FaceDetectorOptions.PerformanceMode: ExpressibleByArgument {}
