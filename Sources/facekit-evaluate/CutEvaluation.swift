import FaceKit
import FaceKitArguments
import FaceKitDatasets
import Foundation

/// The numbers behind "Tracks across cuts" in docs/accuracy.md: where ``SceneCutDetector`` finds
/// cuts in the development clips, how much cuts and motion change a frame, and how far apart the
/// mean descriptors of the tracks `facekit track` keeps are (``TrackJoining``).
struct CutEvaluation: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "cuts",
            abstract: "Cuts found in the development clips, and the descriptor distances between their tracks.")
    }

    static var arguments: [ArgumentDefinition<Self>] { [DevelopmentData.argument(\.data)] }

    var data = DevelopmentData()

    func validate() throws(CommandError) { try data.validateArgument() }

    func run(_ context: CommandContext) throws -> ExitStatus {
        let clips = [("Hamilton", "video/short_hamilton_clip.mp4"), ("Megamind", "video/Megamind.avi")]
        var rows: [[String]] = []
        for (name, path) in clips {
            rows.append(try cutRow(name, frames: videoFrames(data.path(path))))
        }
        let girl = data.path("video/otb-girl/img")
        let girlFrames = try FileManager.default.contentsOfDirectory(atPath: girl).filter { $0.hasSuffix(".jpg") }.sorted()
            .lazy.map { file throws(FaceKitError) in try FaceImage(contentsOfFile: girl + "/" + file) }
        rows.append(try cutRow("OTB Girl", frames: AnySequence(girlFrames)))
        printTable(["clip", "cuts found", "change / jump at the cuts", "largest change / jump elsewhere"], rows)
        print()
        var pairs: [[String]] = []
        for (name, path) in clips { pairs += try trackPairs(name, path: data.path(path)) }
        printTable(["clip", "track (frames)", "track (frames)", "first to last frames apart", "distance", "joined"], pairs)
        return .success
    }

    /// A video's frames, decoded one at a time.
    private func videoFrames(_ path: String) throws -> AnySequence<FaceImage> {
        let video = try VideoReader(contentsOfFile: path)
        return AnySequence { AnyIterator { (try? video.next())?.flatMap(\.image) } }
    }

    /// The cuts of one clip, with the change and jump at them and the largest elsewhere.
    private func cutRow<Frames: Sequence>(_ name: String, frames: Frames) throws -> [String] where Frames.Element == FaceImage {
        var detector = SceneCutDetector()
        var cuts: [(frame: Int, change: Double, jump: Double)] = []
        var elsewhere = (change: 0.0, jump: 0.0)
        for (index, image) in frames.enumerated() {
            let measured = try detector.measure(image)
            if measured.change > SceneCutDetector.minimumChange && measured.jump > SceneCutDetector.minimumJump {
                cuts.append((index, measured.change, measured.jump))
            } else {
                elsewhere = (max(elsewhere.change, measured.change), max(elsewhere.jump, measured.jump))
            }
        }
        progress("\(name): \(cuts.count) cuts")
        func range(_ values: [Double]) -> String {
            guard let low = values.min(), let high = values.max() else { return "" }
            return fixed(low, 1) == fixed(high, 1) ? fixed(low, 1) : "\(fixed(low, 1))-\(fixed(high, 1))"
        }
        return [
            name, cuts.isEmpty ? "none" : cuts.map { String($0.frame) }.joined(separator: ", "),
            cuts.isEmpty ? "" : range(cuts.map(\.change)) + " / " + range(cuts.map(\.jump)),
            fixed(elsewhere.change, 1) + " / " + fixed(elsewhere.jump, 1),
        ]
    }

    /// Every pair of tracks of one clip, as `facekit track` leaves them before joining (default
    /// options, re-identification on): whether their first-to-last spans are apart (only such
    /// tracks may join), their mean descriptors' distance, and whether ``TrackJoining`` joins them.
    private func trackPairs(_ name: String, path: String) throws -> [[String]] {
        var options = FaceDetectorOptions()
        options.isTrackingEnabled = true
        let tracker = try FaceTracker(options: options, reidentification: .required)
        // As facekit track does: a re-identifying tracker runs with one BLAS thread.
        BLASThreads.set(1)
        let video = try VideoReader(contentsOfFile: path)
        var spans: [Int: ClosedRange<Int>] = [:]
        while let frame = try video.next(), let image = frame.image {
            for face in try tracker.process(image, timestampMs: frame.timestampMs) {
                let id = face.trackingID!
                spans[id] = spans[id].map { min($0.lowerBound, frame.index)...max($0.upperBound, frame.index) }
                    ?? frame.index...frame.index
            }
        }
        let joined = tracker.joinedTrackIDs()
        let ids = spans.keys.sorted()
        var rows: [[String]] = []
        for a in ids {
            for b in ids where b > a {
                guard let distance = tracker.joining.distance(between: a, and: b) else { continue }
                let together = joined[b] == a || (joined[b] != nil && joined[b] == joined[a])
                rows.append([
                    name, "\(a) (\(spans[a]!.lowerBound)-\(spans[a]!.upperBound))",
                    "\(b) (\(spans[b]!.lowerBound)-\(spans[b]!.upperBound))", spans[a]!.overlaps(spans[b]!) ? "no" : "yes",
                    fixed(distance, 3), together ? "yes" : "no",
                ])
            }
        }
        return rows
    }
}
