@_spi(Training) import FaceKit
import FaceKitDatasets
import Foundation

/// Every eye the eye models are fitted and judged on, with who it belongs to.
///
/// Four groups of people: the FOCUS clips of `mahie` (three clips, glasses) and of `soniya` (one
/// clip), labelled frame by frame (labels shifted by the documented one frame); `cew`, Closed
/// Eyes In The Wild crops (hundreds of people, every eye closed; detected as they are: padding
/// them with repeated edge pixels, tried first, lost one face in ten); and `genki`, GENKI-4K faces
/// (hundreds of people, eyes open in nearly all; the label is assumed). Each eye is one sample.
struct EyeSamples {
    struct Sample {
        var geometry: [Double]
        /// Appearance features in each of ``layouts``.
        var appearance: [[Double]]
        var open: Bool
        /// The face's outer-eye-corner distance in pixels (an eye is about a third of it wide).
        var interOcular: Double
        var person: String
        /// Where it comes from: a file, or "clip#frame".
        var source: String
        /// Cross-validation fold: one per FOCUS person, five for the still photos (by file).
        var fold: Int
    }

    /// A FOCUS clip frame by frame, for the video model: each eye's aspect ratio and the index
    /// of its sample (when the frame is labelled).
    struct ClipFrame {
        var timestampMs: Double
        var closed: Bool?
        var aspectRatios: [Double]
        var samples: [Int?]
    }

    static let people = ["mahie": ["mahie_test_1", "mahie_test_2", "mahie_test_3"], "soniya": ["soniya_test_3"]]
    static let personFolds = ["mahie": 0, "soniya": 1]
    static let stillFolds = 5
    /// The patch layouts compared: the shipped one, and the wider patch tried first (twice the
    /// eye's width, as high as it is wide), which takes in a pair of glasses' rims.
    static let layouts = [
        EyeAppearance.layout,
        EyeAppearance.Layout(
            widthInEyes: 2, heightInEyes: 1, patchWidth: 48, patchHeight: 24, cellColumns: 4, cellRows: 3, bins: 6),
    ]

    var samples: [Sample] = []
    var clips: [String: [ClipFrame]] = [:]
    /// Per FOCUS clip, the mean aspect ratio and the raw (unshifted) labels, to check the shift.
    var labelAlignment: [String: (ratios: [Double?], rawClosed: [Bool])] = [:]
    var missed: [String: Int] = [:]
    var faces: [String: Int] = [:]

    static func load(data: URL, detector: FaceDetector, cache: ShapeCache) throws -> EyeSamples {
        var result = EyeSamples()
        try result.loadClips(data: data, detector: detector, cache: cache)
        try result.loadCEW(data: data, detector: detector, cache: cache)
        try result.loadGENKI(data: data, detector: detector, cache: cache)
        return result
    }

    private mutating func add(shape: FaceShape, image: FaceImage, open: Bool, person: String, source: String, fold: Int)
        throws -> [Int?]
    {
        guard shape.isPlausible else { return [nil, nil] }
        faces[person, default: 0] += 1
        return try [EyeFeatures.Eye.left, .right].map { eye in
            let appearance = try Self.layouts.map { try EyeAppearance.features(of: eye, shape: shape, in: image, layout: $0) }
            guard appearance.allSatisfy({ $0 != nil }) else { return nil }
            samples.append(Sample(
                geometry: EyeFeatures.features(of: shape, eye: eye), appearance: appearance.map { $0! }, open: open,
                interOcular: hypot(shape.points[36].x - shape.points[45].x, shape.points[36].y - shape.points[45].y),
                person: person, source: source, fold: fold))
            return samples.count - 1
        }
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
                    let shape = try cache.shape(for: key) { try largestFace(in: image, detector: detector)?.shape }
                    guard let shape, shape.isPlausible else {
                        if label != nil { missed[person, default: 0] += 1 }
                        ratios.append(nil)
                        continue
                    }
                    let eyeRatios = [EyeFeatures.aspectRatio(shape.leftEye), EyeFeatures.aspectRatio(shape.rightEye)]
                    ratios.append((eyeRatios[0] + eyeRatios[1]) / 2)
                    let indices = try label.map {
                        try add(shape: shape, image: image, open: !$0, person: person, source: key, fold: Self.personFolds[person]!)
                    } ?? [nil, nil]
                    frames.append(ClipFrame(timestampMs: frame.timestampMs, closed: label, aspectRatios: eyeRatios, samples: indices))
                }
                clips[name] = frames
                labelAlignment[name] = (ratios, raw)
                FileHandle.standardError.write(Data("eyes: \(name) done\n".utf8))
            }
        }
    }

    /// CEW crops, tight around the face.
    private mutating func loadCEW(data: URL, detector: FaceDetector, cache: ShapeCache) throws {
        let folder = data.appendingPathComponent("eyes/cew-closed")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jpg") }.sorted()
        for (i, file) in files.enumerated() {
            let path = folder.appendingPathComponent(file).path
            guard let image = try? FaceImage(contentsOfFile: path) else {
                missed["cew", default: 0] += 1
                continue
            }
            guard let shape = try cache.shape(for: path, compute: { try largestFace(in: image, detector: detector)?.shape }),
                try add(shape: shape, image: image, open: false, person: "cew", source: path, fold: 2 + i % Self.stillFolds)
                    .contains(where: { $0 != nil })
            else {
                missed["cew", default: 0] += 1
                continue
            }
        }
        FileHandle.standardError.write(Data("eyes: CEW done\n".utf8))
    }

    private mutating func loadGENKI(data: URL, detector: FaceDetector, cache: ShapeCache) throws {
        let entries = try SmileLabels.read(data.appendingPathComponent("smile/genki4k/labels.csv").path)
        for (i, entry) in entries.enumerated() {
            guard let image = try? FaceImage(contentsOfFile: entry.file),
                let shape = try cache.shape(for: entry.file, compute: { try largestFace(in: image, detector: detector)?.shape }),
                try add(shape: shape, image: image, open: true, person: "genki", source: entry.file, fold: 2 + i % Self.stillFolds)
                    .contains(where: { $0 != nil })
            else {
                missed["genki", default: 0] += 1
                continue
            }
        }
        FileHandle.standardError.write(Data("eyes: GENKI done\n".utf8))
    }
}
