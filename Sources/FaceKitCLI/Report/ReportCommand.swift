import FaceKit
import FaceKitArguments
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `facekit report`: a static web site that shows a collection or a video at a glance, from the
/// tables `analyze`, `track` and `group` wrote (CSV or JSON Lines, `track --summary`, `group`'s
/// faces.csv and people.csv), or from images, folders and videos it analyses itself.
///
/// The site (``ReportSite``) needs no server and no network: `index.html` (overview), the Photos,
/// People and Videos pages, SVG plots drawn here, pictures cut from the sources. Sources are
/// found by the path the tables give, from the current folder, else from the table's folder.
/// A source that cannot be read is listed on the overview and reported on standard error; the
/// exit status is then 1 (64 for a wrong command line).
///
/// ```sh
/// facekit report faces.csv tracks.csv summary.csv --output report/
/// facekit report --classify photos/ clip.mp4 --output report/
/// ```
struct ReportCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "report",
            abstract: "Write a static web site that shows the faces of a collection or a video at a glance.",
            discussion: """
                Inputs named .csv, .jsonl or .ndjson are read as tables: the faces analyze and track \
                wrote, track --summary tables, and group's faces.csv and people.csv. Other inputs \
                (images, videos, folders of both) are analysed with the detection flags, as analyze \
                and track would. People come from group's tables, or else are grouped here as group \
                groups them, by the descriptors of the faces and tracks analysed here or read from \
                JSON Lines written with --descriptors; the People page says how, and what is left out. \
                The --output folder gets index.html, its style sheet and pictures: \
                open it in a browser, copy it or serve it as it is.
                """)
    }

    static var arguments: [ArgumentDefinition<ReportCommand>] {
        [
            .option(
                "output", \.output, valueName: "folder",
                help: "Write the site into this folder: a new or empty one, or an earlier report's, replaced whole."
            ).required(),
            .option(
                "faces-per-person", \.facesPerPerson, valueName: "n",
                help: "Show at most this many faces on a person's page, best shots first."),
            .option(
                "sheet-every", \.sheetEvery, valueName: "seconds",
                help: "Put a frame of each video on its contact sheet this often (at most 48 frames)."),
            WorkerFlags.jobsArgument(\.workers, help: "Analyse and cut pictures from this many files at once."),
            WorkerFlags.maxPixelsArgument(\.workers),
            .flag("quiet", \.quiet, help: "Do not show progress and the closing summary on a terminal."),
        ]
            + DetectionFlags.arguments(\.detection, contoursHelp: nil)
            + PeopleFlags.arguments(\.people, descriptors: false)
            + VideoFlags.arguments(\.video)
            + FrameSelectionFlags.arguments(\.frames)
            + [
                .positional(
                    "input", \.inputs,
                    help: "A table (.csv, .jsonl), an image, a video, or a folder of images and videos."),
            ]
    }

    var output: String?
    var facesPerPerson = 24
    var sheetEvery = 2.0
    var workers = WorkerFlags()
    var quiet = false
    var detection = DetectionFlags()
    var people = PeopleFlags()
    var video = VideoFlags()
    var frames = FrameSelectionFlags()
    var inputs: [String] = []

    init() {}

    func validate() throws(CommandError) {
        guard let output, !output.isEmpty else { throw CommandError("The value '' is invalid for '--output <folder>'") }
        guard !inputs.isEmpty else { throw CommandError("Missing expected argument '<input> ...'") }
        for input in inputs {
            if let problem = OutputOverlap.folderProblem(
                input: input, outputFolder: output,
                reason: "report skips the photos and videos in its output folder (an earlier report's pictures), "
                    + "so none would be analysed; choose another --output folder",
                filesToo: !ReportTable.isTableFileName(input))
            {
                throw CommandError(problem)
            }
        }
        guard facesPerPerson >= 1 else {
            throw CommandError("The value '\(facesPerPerson)' is invalid for '--faces-per-person <n>': it must be at least 1")
        }
        guard sheetEvery > 0, sheetEvery.isFinite else {
            throw CommandError(
                "The value '\(sheetEvery.defaultValueDescription)' is invalid for '--sheet-every <seconds>': "
                    + "it must be a positive number of seconds")
        }
        try workers.validate()
        if detection.contours {
            throw CommandError("'--contours' is not available with 'facekit report': the report does not draw contours")
        }
        try people.validate(format: nil)
        try video.validate()
        try frames.validate()
        try detection.validate(detection.detectorOptions)
    }

    func run(_ context: CommandContext) throws -> ExitStatus {
        let folder = output!
        // Checked first: a folder the report may not replace is refused before any work.
        let reportFolder = try ReportFolder(target: folder)
        // Ctrl-C says what it leaves (``InterruptCleanup``, as analyze and track say it).
        InterruptCleanup.announce(Self.interruptedLine(.analysing, output: folder))
        defer { InterruptCleanup.withdraw() }
        var faces: [ReportFace] = []
        var groupFaces: [ReportFace] = []
        var summaries: [ReportTable.TrackSummaryRow] = []
        var peopleRows: [ReportTable.PersonRow]?
        var failures: [ReportCollection.Failure] = []
        var tables: [(String, String)] = []
        var tableFolders: [String] = []
        var others: [String] = []
        for input in inputs {
            guard ReportTable.isTableFileName(input), !FileManager.default.isDirectoryPath(input) else {
                others.append(input)
                continue
            }
            let skipped = ReportTable.SkippedRows()
            defer { Self.reportSkipped(skipped.messages, of: input, stderr: context.stderr, into: &failures) }
            do throws(ReportTable.Unreadable) {
                switch try ReportTable.read(input, skipped: skipped) {
                case .faces(let rows):
                    if rows.contains(where: { $0.personID != nil }) {
                        groupFaces += rows
                        tables.append((input, "faces of facekit group: \(rows.count) rows"))
                    } else {
                        faces += rows
                        let kind = rows.contains(where: \.isVideo) ? "track" : "analyze"
                        tables.append((input, "faces of facekit \(kind): \(rows.count) rows"))
                    }
                case .trackSummary(let rows):
                    summaries += rows
                    tables.append((input, "track --summary: \(rows.count) tracks"))
                case .people(let rows):
                    peopleRows = (peopleRows ?? []) + rows
                    tables.append((input, "people of facekit group: \(rows.count) people"))
                }
                let parent = (input as NSString).deletingLastPathComponent
                if !tableFolders.contains(parent) { tableFolders.append(parent) }
            } catch {
                context.stderr.writeDiagnostic(error.description)
                failures.append(.init(source: input, reason: ReportAnalysis.reason(error.description, of: input)))
            }
        }
        var analysedPhotos: [String] = []
        var trackDescriptors: [String: [Int: FaceDescriptor]] = [:]
        if !others.isEmpty {
            let analysis = ReportAnalysis(
                detection: detection, people: people, video: video, frames: frames, workers: workers, outputFolder: folder)
            let result = try analysis.run(others, context: context, showProgress: !quiet && context.stderr.isTerminal)
            faces += result.faces
            analysedPhotos = result.photosAnalysed
            trackDescriptors = result.trackDescriptors
            failures += result.failures
        }
        var collection = try ReportCollection(
            faces: faces, groupFaces: groupFaces, summaries: summaries, peopleRows: peopleRows,
            analysedPhotos: analysedPhotos, facesPerPerson: facesPerPerson, trackDescriptors: trackDescriptors)
        collection.failures = failures
        collection.tables = tables
        collection.knowsFacelessPhotos = tables.isEmpty && !others.isEmpty
        collection.options = options(analysed: !others.isEmpty)
        // Built whole in a hidden folder beside the target, then put in its place (``ReportFolder``).
        let building = try reportFolder.begin()
        InterruptCleanup.announce(Self.interruptedLine(.building(building), output: folder))
        let site = ReportSite(
            collection: collection, folder: building, sheetIntervalSeconds: sheetEvery, jobs: workers.jobs,
            locate: { Self.locate($0, tableFolders: tableFolders) })
        let pictureFailures: [ReportCollection.Failure]
        do {
            pictureFailures = try site.write()
            InterruptCleanup.announce(Self.interruptedLine(.replacing, output: folder))
            try reportFolder.commit()
        } catch {
            reportFolder.abandon()
            throw error
        }
        for failure in pictureFailures { context.stderr.writeDiagnostic(failure.reason) }
        context.stdout.write(MessageText.escaped(folder.hasSuffix("/") ? folder + "index.html" : folder + "/index.html") + "\n")
        return failures.isEmpty && pictureFailures.isEmpty ? .success : .failure
    }

    /// How far a run has gone, for what an interruption leaves.
    enum Stage {
        case analysing
        /// The new site is being written into this hidden folder.
        case building(String)
        case replacing
    }

    /// The line Ctrl-C (or SIGTERM, SIGHUP) ends a run with at `stage`: what the output folder holds then.
    /// A rerun starts over: report keeps nothing of an interrupted run (docs/cli.md, "Interrupted").
    static func interruptedLine(_ stage: Stage, output: String) -> String {
        let shown = MessageText.escaped(output)
        switch stage {
        case .analysing:
            return "facekit: interrupted; report wrote nothing: \(shown) is as it was (an earlier report there is "
                + "untouched); a rerun starts over"
        case .building(let building):
            return "facekit: interrupted; \(shown) is as it was (an earlier report there is untouched); the unfinished "
                + "new report in \(MessageText.escaped(building)) is removed by the next report into \(shown); a rerun starts over"
        case .replacing:
            return "facekit: interrupted while putting the new report in place: \(shown) holds either the earlier report "
                + "or the new one, whole; a rerun starts over"
        }
    }

    /// The most rows left out of one table that are named on standard error, one a line; the
    /// rest are counted.
    static let shownSkippedRows = 20

    /// Says which rows of the table `input` were left out for a value out of range (at most
    /// ``shownSkippedRows`` lines, then how many more), and lists the table on the overview.
    static func reportSkipped(
        _ messages: [String], of input: String, stderr: any TextOutput, into failures: inout [ReportCollection.Failure]
    ) {
        guard let first = messages.first else { return }
        for message in messages.prefix(shownSkippedRows) { stderr.writeDiagnostic(message + "; the row is left out") }
        if messages.count > shownSkippedRows {
            stderr.writeDiagnostic("\(input): \(messages.count - shownSkippedRows) more rows left out for values out of range")
        }
        let count = messages.count == 1 ? "1 row" : "\(messages.count) rows"
        failures.append(
            .init(
                source: input,
                reason: "\(count) left out for values out of range, the first: " + ReportAnalysis.reason(first, of: input)))
    }

    /// A source as the tables name it, found from the current folder or else from a table's folder.
    static func locate(_ source: String, tableFolders: [String]) -> String {
        if source.hasPrefix("/") || exists(source) { return source }
        for folder in tableFolders where !folder.isEmpty {
            let candidate = folder + "/" + source
            if exists(candidate) { return candidate }
        }
        return source
    }

    /// Whether anything is at `path`, whose bytes need not be UTF-8 (``FilePathEncoding``).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return FilePathEncoding.withFileSystemRepresentation(path) { stat($0, &info) } == 0
    }

    /// The options shown on the overview.
    private func options(analysed: Bool) -> [(String, String)] {
        var list: [(String, String)] = [("inputs", inputs.joined(separator: " "))]
        list.append(("--faces-per-person", String(facesPerPerson)))
        list.append(("--sheet-every", sheetEvery.defaultValueDescription + " s"))
        if analysed {
            list.append(("--mode", detection.mode.rawValue))
            list.append(("--min-face-size", detection.minFaceSize.defaultValueDescription))
            list.append((
                "--min-detection-score",
                detection.minDetectionScore?.defaultValueDescription
                    ?? "\(FaceDetectorOptions.defaultMinDetectionScore.defaultValueDescription) photos, "
                    + "\(FaceDetectorOptions.defaultVideoMinDetectionScore.defaultValueDescription) video"))
            list.append(("--landmarks", detection.landmarks ? "on" : "off"))
            list.append(("--classify", detection.classify ? "on" : "off"))
            if let known = people.known {
                list.append(("--known", known))
                list.append(("--known-tolerance", people.knownTolerance.defaultValueDescription))
            }
        }
        list.append(("facekit", FaceKitCommand.version))
        return list
    }
}

extension FileManager {
    /// Whether a folder is at `path`.
    fileprivate func isDirectoryPath(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }
}
