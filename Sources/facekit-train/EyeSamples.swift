import FaceKit
import FaceKitDatasets
import Foundation

/// Every eye the eye models are fitted and judged on, with who it belongs to.
///
/// Five groups of people: the FOCUS clips of `mahie` (three clips, glasses) and of `soniya` (one
/// clip), labelled frame by frame (labels shifted by the documented one frame); `cew`, Closed
/// Eyes In The Wild crops (hundreds of people, every eye closed; detected as they are: padding
/// them with repeated edge pixels, tried first, lost one face in ten); `genki`, GENKI-4K faces
/// (hundreds of people, eyes open in nearly all; the label is assumed); and `open-faces`, tight
/// crops of thousands of people, many smiling (open, assumed; loaded only when asked, for the
/// eye-state network). Each eye is one sample.
struct EyeSamples {
    struct Sample {
        var open: Bool
        /// The face's outer-eye-corner distance in pixels (an eye is about a third of it wide).
        var interOcular: Double
        var person: String
        /// Where it comes from: a file, or "clip#frame".
        var source: String
        var eye: EyeFeatures.Eye
        /// The eye's patch for training the eye-state network: ``trainingPatchSide`` pixels square,
        /// ``trainingPatchWidthInEyes`` eye widths across, so that its centre ``EyeStateModel/side``
        /// pixels are exactly the network's input at run time, with a margin to shift and scale.
        var trainingPatch: [UInt8]
        /// What the runtime's still-photo model (``FaceDetector`` with classification on) gave
        /// this eye, or why it gave nothing.
        var runtime: Double?
        var runtimeAbsence: Face.AbsenceReason?
    }

    static let trainingPatchSide = 48
    static let trainingPatchWidthInEyes =
        EyeStateModel.widthInEyes * Double(trainingPatchSide) / Double(EyeStateModel.side)

    /// A FOCUS clip frame by frame, for the video model: each eye's aspect ratio and the index
    /// of its sample (when the frame is labelled).
    struct ClipFrame {
        var timestampMs: Double
        var closed: Bool?
        var aspectRatios: [Double]
        var samples: [Int?]
    }

    static let people = ["mahie": ["mahie_test_1", "mahie_test_2", "mahie_test_3"], "soniya": ["soniya_test_3"]]
    var samples: [Sample] = []
    var clips: [String: [ClipFrame]] = [:]
    /// Per FOCUS clip, the mean aspect ratio and the raw (unshifted) labels, to check the shift.
    var labelAlignment: [String: (ratios: [Double?], rawClosed: [Bool])] = [:]
    var missed: [String: Int] = [:]
    var faces: [String: Int] = [:]

    /// Every group; `openFaces` adds the open-faces crops. With a `cache`, a face found before
    /// is not analysed again, and its eyes carry no runtime probability.
    static func load(data: URL, detector: FaceDetector, cache: ShapeCache, openFaces: Bool = false) throws -> EyeSamples {
        var result = EyeSamples()
        try result.loadClips(data: data, detector: detector, cache: cache)
        try result.loadStills(folder: data.appendingPathComponent("eyes/cew-closed"), person: "cew", open: false, detector: detector, cache: cache)
        let genki = try SmileLabels.read(data.appendingPathComponent("smile/genki4k/labels.csv").path).map(\.file)
        try result.loadStills(files: genki, person: "genki", open: true, detector: detector, cache: cache)
        if openFaces {
            try result.loadStills(
                folder: data.appendingPathComponent("eyes/open-faces"), person: "open-faces", open: true, detector: detector,
                cache: cache)
        }
        return result
    }

    private mutating func add(
        shape: FaceShape, face: Face?, image: FaceImage, open: Bool, person: String, source: String
    ) throws -> [Int?] {
        guard shape.isPlausible else { return [nil, nil] }
        faces[person, default: 0] += 1
        return try [EyeFeatures.Eye.left, .right].map { eye in
            let side = Self.trainingPatchSide
            guard
                let patch = try EyePatch.cut(
                    eye, shape: shape, in: image, width: side, height: side, widthInEyes: Self.trainingPatchWidthInEyes,
                    heightInEyes: Self.trainingPatchWidthInEyes)
            else { return nil }
            let kind: Face.Probability = eye == .left ? .leftEyeOpen : .rightEyeOpen
            samples.append(Sample(
                open: open,
                interOcular: shape.interOcularDistance,
                person: person, source: source, eye: eye, trainingPatch: patch, runtime: face?.probability(kind),
                runtimeAbsence: face?.absenceReason(kind)))
            return samples.count - 1
        }
    }

    /// The largest face of `image`, analysed (`face` set) unless `cache` knew its shape already.
    private static func analyse(_ image: FaceImage, key: String, detector: FaceDetector, cache: ShapeCache) throws
        -> (shape: FaceShape, face: Face?)?
    {
        var face: Face?
        let shape = try cache.shape(for: key) {
            let found = try largestFace(in: image, detector: detector)
            face = found?.face
            return found?.shape
        }
        return shape.map { ($0, face) }
    }

    private mutating func loadClips(data: URL, detector: FaceDetector, cache: ShapeCache) throws {
        let folder = data.appendingPathComponent("eyes/focus-blink")
        for (person, names) in Self.people.sorted(by: { $0.key < $1.key }) {
            for name in names {
                let labels = try String(contentsOf: folder.appendingPathComponent(name + "_ideal.csv"), encoding: .utf8)
                let closed = try BlinkLabels.closedByFrame(folder.appendingPathComponent(name + "_ideal.csv").path)
                let raw = labels.split(whereSeparator: \.isNewline).map { $0.hasSuffix("1") }
                var frames: [ClipFrame] = []
                var ratios: [Double?] = []
                let video = try VideoReader(contentsOfFile: folder.appendingPathComponent(name + ".avi").path)
                while let frame = try video.next(), let image = frame.image {
                    let key = "\(name)#\(frame.index)"
                    let label = frame.index < closed.count ? closed[frame.index] : nil
                    let analysed = try Self.analyse(image, key: key, detector: detector, cache: cache)
                    guard let (shape, face) = analysed, shape.isPlausible else {
                        if label != nil { missed[person, default: 0] += 1 }
                        ratios.append(nil)
                        continue
                    }
                    let eyeRatios = [EyeFeatures.aspectRatio(shape.leftEye), EyeFeatures.aspectRatio(shape.rightEye)]
                    ratios.append((eyeRatios[0] + eyeRatios[1]) / 2)
                    let indices = try label.map {
                        try add(shape: shape, face: face, image: image, open: !$0, person: person, source: key)
                    } ?? [nil, nil]
                    frames.append(ClipFrame(timestampMs: frame.timestampMs, closed: label, aspectRatios: eyeRatios, samples: indices))
                }
                clips[name] = frames
                labelAlignment[name] = (ratios, raw)
                FileHandle.standardError.write(Data("eyes: \(name) done\n".utf8))
            }
        }
    }

    /// The photos of a folder (sorted by name), one face each.
    private mutating func loadStills(
        folder: URL, person: String, open: Bool, detector: FaceDetector, cache: ShapeCache
    ) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jpg") }.sorted()
        try loadStills(
            files: names.map { folder.appendingPathComponent($0).path }, person: person, open: open, detector: detector,
            cache: cache)
    }

    /// Photos of one face each, all of one eye state.
    private mutating func loadStills(
        files: [String], person: String, open: Bool, detector: FaceDetector, cache: ShapeCache
    ) throws {
        for path in files {
            guard let image = try? FaceImage(contentsOfFile: path),
                let (shape, face) = try Self.analyse(image, key: path, detector: detector, cache: cache),
                try add(shape: shape, face: face, image: image, open: open, person: person, source: path)
                    .contains(where: { $0 != nil })
            else {
                missed[person, default: 0] += 1
                continue
            }
        }
        FileHandle.standardError.write(Data("eyes: \(person) done\n".utf8))
    }
}
