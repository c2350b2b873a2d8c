import FaceKit
import Foundation

/// Reads the JSON Lines that `facekit analyze --descriptors --format jsonl` writes (see
/// ``JSONLinesFaceWriter``), so that a collection analysed in shards, or over several runs with
/// `--resume`, is grouped from the merged file without analysing a photo twice.
///
/// Each line becomes a ``GroupedFace`` with what the line holds: source, frame, face index,
/// tracking ID, box, detection score, head angles, probabilities and their absence reasons,
/// quality, landmarks and the descriptor (`null` when it could not be computed: that face is
/// written without a person). A file whose first face has no `descriptor` key was analysed
/// without `--descriptors` and is refused whole; a line that is not such an object (a line cut
/// by an interrupted run) is reported with its number and skipped.
///
/// The lines of `facekit track --descriptors --format jsonl`, one per face per frame, become one
/// face per track, as a video given to `facekit group` does (``VideoTrackFaces``): the track's
/// best-quality line, its first and last frame, and the mean descriptor of its
/// ``VideoTrackFaces/shotsPerTrack`` best-quality described lines (``oneFacePerTrack(_:)``).
enum DescriptorLines {
    /// The result of one file: its faces, and a message for each line skipped.
    struct Contents {
        var faces: [GroupedFace] = []
        var skippedLines: [String] = []
    }

    static func read(_ path: String) throws(FailedInput) -> Contents {
        var contents = Contents()
        let shown = FilePathEncoding.text(path)
        try LineFileReader.forEachLine(of: path) { (line, number) throws(FailedInput) in
            guard let bytes = line else {
                contents.skippedLines.append(
                    "\(shown): line \(number) skipped: longer than \(LineFileReader.maximumLineLength / 1024) KiB, "
                        + "which no face's line is")
                return
            }
            guard bytes.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") && $0 != 13 }) else {
                return
            }
            do throws(LineProblem) {
                contents.faces.append(try face(fromLine: Data(bytes)))
            } catch .noFace {
                // A photo without a face, or one that failed: nobody to group.
            } catch .noDescriptorKey where contents.faces.isEmpty {
                throw FailedInput(
                    description: "\(shown): line \(number) has no descriptor: "
                        + "write it with facekit analyze --descriptors --format jsonl")
            } catch {
                contents.skippedLines.append("\(shown): line \(number) skipped: \(error.description)")
            }
        }
        contents.faces = oneFacePerTrack(contents.faces)
        return contents
    }

    /// `faces` with each track's lines (a video's faces with one tracking ID) made one face, in
    /// the place of the track's first line; faces without a tracking ID are kept as they are.
    static func oneFacePerTrack(_ faces: [GroupedFace]) -> [GroupedFace] {
        struct Track: Hashable {
            var source: String
            var id: Int
        }
        func track(of face: GroupedFace) -> Track? {
            guard face.isVideo, let id = face.record.face.trackingID else { return nil }
            return Track(source: face.record.source, id: id)
        }
        var lines: [Track: [GroupedFace]] = [:]
        for face in faces {
            if let key = track(of: face) { lines[key, default: []].append(face) }
        }
        var result: [GroupedFace] = []
        var done = Set<Track>()
        for face in faces {
            guard let key = track(of: face) else {
                result.append(face)
                continue
            }
            guard done.insert(key).inserted else { continue }
            let byQuality = lines[key]!.sorted { $0.record.face.quality > $1.record.face.quality }
            var best = byQuality[0]
            let frames = lines[key]!.compactMap(\.record.frame)
            best.firstFrame = frames.min()
            best.lastFrame = frames.max()
            let shots = byQuality.compactMap(\.record.face.descriptor).prefix(VideoTrackFaces.shotsPerTrack)
            if !shots.isEmpty {
                best.record.face.descriptor = FaceDescriptor.mean(of: Array(shots))
                best.record.face.descriptorAbsenceReason = nil
            }
            result.append(best)
        }
        return result
    }

    /// Why a line is not a face.
    enum LineProblem: Error, CustomStringConvertible {
        case notJSON
        /// The line of an image without a face, or of an input that failed (`status`).
        case noFace
        case missing(String)
        case noDescriptorKey
        case badDescriptor
        case badQuality

        var description: String {
            switch self {
            case .notJSON: "not a JSON object"
            case .noFace: "no face"
            case .missing(let key): "no valid \"\(key)\""
            case .noDescriptorKey: "no \"descriptor\" (analysed without --descriptors)"
            case .badDescriptor:
                "\"descriptor\" is neither null nor \(FaceDescriptor.length) numbers within \(Int(DescriptorLines.largestDescriptorValue)) of 0"
            case .badQuality: "\"quality\" is not a number from 0 to 1"
            }
        }
    }

    /// The face of one line of analyze's JSON Lines.
    static func face(fromLine line: Data) throws(LineProblem) -> GroupedFace {
        guard let object = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any] else { throw .notJSON }
        if let status = object["status"] as? String, !RowStatus.holdsFace(status) { throw .noFace }
        guard let sourceText = object["source"] as? String else { throw .missing("source") }
        guard let index = integer(object["face"]) else { throw .missing("face") }
        guard let box = object["box"] as? [String: Any], let x = number(box["x"]), let y = number(box["y"]),
            let width = number(box["width"]), let height = number(box["height"])
        else { throw .missing("box") }
        guard object.keys.contains("descriptor") else { throw .noDescriptorKey }
        var face = Face(frame: CGRect(x: x, y: y, width: width, height: height))
        face.detectionScore = number(object["detection_score"]) ?? 0
        if let angles = object["head_euler"] as? [String: Any] {
            face.headEulerAngleX = number(angles["x"]) ?? 0
            face.headEulerAngleY = number(angles["y"]) ?? 0
            face.headEulerAngleZ = number(angles["z"]) ?? 0
        }
        face.smilingProbability = number(object["smiling_probability"])
        face.leftEyeOpenProbability = number(object["left_eye_open_probability"])
        face.rightEyeOpenProbability = number(object["right_eye_open_probability"])
        let absent = object["absent"] as? [String: Any] ?? [:]
        for kind in Face.Probability.allCases {
            if let reason = (absent[JSONLinesFaceWriter.probabilityKey(kind)] as? String).flatMap(Face.AbsenceReason.init) {
                face.absenceReasons[kind] = reason
            }
        }
        face.trackingID = integer(object["tracking_id"])
        if object["status"] as? String == RowStatus.followed.rawValue {
            face.followedPointShare = number(object["confidence"])
        }
        if let quality = object["quality"], !(quality is NSNull) {
            guard let value = number(quality), (0...1).contains(value) else { throw .badQuality }
            face.quality = value
        }
        if let landmarks = object["landmarks"] as? [String: Any] {
            for type in FaceLandmark.LandmarkType.allCases {
                if let point = landmarks[type.snakeCaseName] as? [Any], point.count == 2, let px = number(point[0]),
                    let py = number(point[1])
                {
                    face.landmarks.append(FaceLandmark(type: type, position: CGPoint(x: px, y: py)))
                }
            }
        }
        switch object["descriptor"] {
        case let values as [Any]:
            let floats = values.compactMap { number($0) }.filter { abs($0) <= Self.largestDescriptorValue }.map(Float.init)
            guard floats.count == FaceDescriptor.length, values.count == FaceDescriptor.length else { throw .badDescriptor }
            face.descriptor = FaceDescriptor(values: floats)
        case is NSNull:
            face.descriptorAbsenceReason = (absent["descriptor"] as? String).flatMap(Face.AbsenceReason.init)
        default:
            throw .badDescriptor
        }
        let source = FilePathEncoding.string(fromPathBytes: FilePathEncoding.pathBytes(fromText: sourceText))
        let frame = integer(object["frame"])
        let image = ImageFacts(
            width: integer(object["image_width"]), height: integer(object["image_height"]),
            captureTime: object["capture_time"] as? String)
        let record = FaceRecord(
            source: source, frame: frame, timestampMilliseconds: number(object["timestamp_ms"]), index: index, face: face,
            image: image)
        return GroupedFace(record: record, firstFrame: frame, lastFrame: frame)
    }

    /// The largest descriptor value read: dlib's descriptors have about unit length, so their
    /// values lie within ±1; far larger ones (1e308 would overflow a Float and every distance
    /// computed from it) can only come from a damaged file.
    static let largestDescriptorValue = 100.0

    /// A JSON number as a finite Double.
    private static func number(_ value: Any?) -> Double? {
        guard let double = JSONNumber.of(value)?.doubleValue, double.isFinite else { return nil }
        return double
    }

    /// A JSON whole number.
    private static func integer(_ value: Any?) -> Int? {
        guard let double = number(value), double == double.rounded(), abs(double) < 1e15 else { return nil }
        return Int(double)
    }
}
