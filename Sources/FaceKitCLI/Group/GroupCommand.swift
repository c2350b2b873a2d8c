import FaceKit
import FaceKitArguments
import Foundation

/// `facekit group`: describes every face of photos, videos and folders (or reads the descriptors
/// of `analyze --descriptors --format jsonl`), groups the faces into people (``FaceClustering``:
/// a nearest-neighbour graph and dlib's chinese whispers), and writes `faces.csv` (analyze's
/// columns plus `person_id`, `first_frame`, `last_frame`) and `people.csv` (``PersonSummary``)
/// into the `--output` folder, each replaced only once complete.
///
/// A video gives one face per track: the track's best-quality face, with one descriptor from a
/// few of its best shots (``VideoTrackFaces``). After clustering, a person seen only in video may
/// join a person of the photos (``VideoPersonJoining``). Inputs that fail are reported on standard error
/// and skipped; the exit status is then 1.
///
/// ```sh
/// facekit group --output people/ photos/ party.mp4
/// facekit group --output people/ --known known/ shard-*.jsonl
/// ```
struct GroupCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "group",
            abstract: "Group the faces of photos and videos into people.",
            discussion: """
                Folders are searched recursively for photos and videos, in path order; a .jsonl (or .ndjson) file \
                is read as the output of analyze --descriptors --format jsonl, so that a collection \
                analysed in shards is grouped without analysing a photo twice. A video, or track's \
                JSON Lines, gives one face per track; a person seen only in video joins the person of the \
                photos whose mean descriptor is nearest theirs, when within 0.58. Writes faces.csv (one row per face, with its person_id) and people.csv (one \
                row per person, with the best shot) into the --output folder, and with --crops \
                a picture of each person's best shot. An input that cannot be \
                read is reported on standard error and skipped; the exit status is then 1.
                """)
    }

    static var arguments: [ArgumentDefinition<GroupCommand>] {
        DetectionFlags.arguments(\.detection, contoursHelp: nil)
            + PeopleFlags.arguments(\.people, descriptors: false)
            + [
                .option(
                    "threshold", \.threshold, valueName: "distance",
                    help: "Join two faces only when their descriptors are closer than this."),
                .option(
                    "neighbours", \.neighbours, valueName: "k",
                    help: "Join each face to at most this many of its nearest faces."),
            ]
            + FrameSelectionFlags.arguments(\.frames)
            + VideoFlags.arguments(\.video)
            + [
                .option("output", \.output, valueName: "dir", help: "Write faces.csv and people.csv into this folder.")
                    .required(),
                .flag("crops", \.crops, help: "Also write each person's best shot, upright, as crops/person-<id>.jpg."),
                .flag(
                    "all-crops", \.allCrops,
                    help: "Also write every face, upright, as crops/face-<n>.jpg (n: its row of faces.csv, from 0); implies --crops."),
                WorkerFlags.maxPixelsArgument(\.workers),
                WorkerFlags.jobsArgument(
                    \.workers, help: "Analyse this many photos at once, one detector each; at most 4 per core."),
                .flag("quiet", \.quiet, help: "Do not show progress and the closing summary on a terminal."),
                .positional(
                    "input", \.inputs, help: "A photo, a video, a folder to search for both, or analyze's JSON Lines (.jsonl)."),
            ]
    }

    var detection = DetectionFlags()
    var people = PeopleFlags()
    var threshold = FaceClustering.defaultThreshold
    var neighbours = FaceClustering().neighbours
    var frames = FrameSelectionFlags()
    var video = VideoFlags()
    var output: String?
    var crops = false
    var allCrops = false
    var workers = WorkerFlags()
    var quiet = false
    var inputs: [String] = []

    init() {}

    var clustering: FaceClustering { FaceClustering(threshold: threshold, neighbours: neighbours) }

    func validate() throws(CommandError) {
        // The parser refuses a command line without --output (it is required()); an empty one is left.
        guard let output, !output.isEmpty else {
            throw CommandError("The value '' is invalid for '--output <dir>': group writes faces.csv and people.csv into a folder")
        }
        guard !inputs.isEmpty else { throw CommandError("Missing expected argument '<input> ...'") }
        guard threshold > 0, threshold.isFinite else {
            throw CommandError(
                "The value '\(threshold.defaultValueDescription)' is invalid for '--threshold <distance>': "
                    + "it must be a positive descriptor distance")
        }
        guard neighbours >= 1 else {
            throw CommandError("The value '\(neighbours)' is invalid for '--neighbours <k>': it must be at least 1")
        }
        try workers.validate()
        if detection.contours {
            throw CommandError("'--contours' cannot be used with group: faces.csv has no contour columns")
        }
        try frames.validate()
        try video.validate()
        try people.validate(format: nil)
        try detection.validate(detectorOptions)
    }

    /// The detection flags' options, with descriptors: grouping needs them.
    var detectorOptions: FaceDetectorOptions {
        var options = detection.detectorOptions
        options.descriptorMode = .all
        return options
    }

    func run(_ context: CommandContext) throws -> ExitStatus {
        let output = self.output!
        let folder = try GroupOutputFolder(path: output)
        // Ctrl-C says what it leaves (``InterruptCleanup``, as analyze and track say it).
        InterruptCleanup.announce(Self.interruptedLine(.reading, output: output))
        defer { InterruptCleanup.withdraw() }
        let expanded = GroupInput.expand(inputs, skipping: folder.file(GroupCrops.folderName))
        let analysis = GroupAnalysis(
            command: self, stderr: context.stderr, inputs: expanded.count,
            showsProgress: !quiet && context.stderr.isTerminal)
        for batch in GroupInput.batches(expanded) { try analysis.add(batch) }
        analysis.progress.finish()
        let known = try analysis.knownPeople()
        var faces = analysis.faces
        if let known {
            for index in faces.indices { faces[index].record.person = known.match(faces[index].record.face) }
        }

        let described = faces.indices.filter { faces[$0].record.face.descriptor != nil }
        ProcessBLAS.configureForClustering()
        // Grouping 100,000 faces takes half a minute: say what is going on until it is done.
        let showsProgress = !quiet && context.stderr.isTerminal
        if showsProgress {
            context.stderr.write("grouping \(described.count) faces into people...")
            context.stderr.flush()
        }
        let clustered = try Self.people(of: faces, clustering: clustering)
        if showsProgress { context.stderr.write("\r\u{1B}[K") }
        let joined = VideoPersonJoining().join(faces, people: clustered.people, count: clustered.count)
        let personOfFace = joined.people
        let summaries = PersonSummary.summaries(of: faces, people: personOfFace, count: joined.count)

        let columns = FaceRecordColumns(landmarks: detection.landmarks, people: known != nil)
        InterruptCleanup.announce(Self.interruptedLine(.writingTables, output: output))
        // An earlier run's crops belong to its tables: gone before these take their place.
        GroupCrops.removeEarlier(from: folder)
        try folder.write(GroupOutputFolder.facesFile) { sink in
            sink.write(CSVFaceWriter.line(CSVFaceWriter.header(columns: columns) + ["person_id", "first_frame", "last_frame"]))
            for (index, face) in faces.enumerated() {
                let cells = CSVFaceWriter.cells(for: face.record, columns: columns) + [
                    personOfFace[index].map(String.init) ?? "", face.firstFrame.map(String.init) ?? "",
                    face.lastFrame.map(String.init) ?? "",
                ]
                sink.write(CSVFaceWriter.line(cells))
            }
        }
        try folder.write(GroupOutputFolder.peopleFile) { sink in
            sink.write(CSVFaceWriter.line(PersonSummary.header))
            for summary in summaries { sink.write(CSVFaceWriter.line(summary.cells(faces: faces))) }
        }
        var failures = analysis.failures
        if crops || allCrops {
            InterruptCleanup.announce(Self.interruptedLine(.writingCrops, output: output))
            let cropping = GroupCrops(summaries: summaries, faceCount: faces.count, all: allCrops)
            for message in try cropping.write(faces: faces, into: folder, maxPixels: workers.maxPixels) {
                context.stderr.writeDiagnostic(message)
                failures += 1
            }
        }
        if !quiet && context.stderr.isTerminal {
            let undescribed = faces.count - described.count
            context.stderr.write(
                "\(faces.count) faces, \(joined.count) people"
                    + (undescribed > 0 ? " (\(undescribed) faces without a descriptor left out)" : "")
                    + (failures > 0 ? ", \(failures) inputs failed" : "") + "\n")
        }
        return failures > 0 ? .failure : .success
    }

    /// How far a run has gone, for what an interruption leaves.
    enum Stage {
        case reading, writingTables, writingCrops
    }

    /// The line Ctrl-C (or SIGTERM, SIGHUP) ends a run with at `stage`: what the output folder holds then.
    /// A rerun starts over: group keeps nothing of an interrupted run (docs/cli.md, "Interrupted").
    static func interruptedLine(_ stage: Stage, output: String) -> String {
        let shown = MessageText.escaped(output)
        switch stage {
        case .reading:
            return "facekit: interrupted; group wrote nothing: \(shown) holds what an earlier run left there, if anything "
                + "(faces.csv and people.csv are written only once every input is grouped); a rerun starts over"
        case .writingTables:
            return "facekit: interrupted while writing \(shown): faces.csv and people.csv are each whole, this run's or an "
                + "earlier one's, and an earlier run's crops are removed; a rerun starts over"
        case .writingCrops:
            return "facekit: interrupted; faces.csv and people.csv in \(shown) are complete, but crops/ lacks some of their "
                + "pictures; a rerun writes them all, starting over"
        }
    }
}
