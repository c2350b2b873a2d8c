/// People known by name, each from the descriptors of a few reference photos, for naming faces:
/// a face (or a tracked person, by ``FaceTracker/personDescriptor(ofTrack:)``) takes the name of
/// the person with the nearest reference descriptor when that distance is within ``tolerance``,
/// and no name otherwise, so a stranger is left unnamed rather than given the nearest name.
///
/// A reference photo must hold exactly one face (``referenceDescriptor(in:detector:)``); the
/// detector must compute descriptors (`descriptorMode = .all`), which needs dlib's face
/// descriptor model. `facekit --known DIR` reads one folder per person (`DIR/<name>/*.jpg`) or one
/// image per person (`DIR/<name>.jpg`) into one of these.
///
/// ```swift
/// var options = FaceDetectorOptions()
/// options.descriptorMode = .all
/// let detector = try FaceDetector(options: options)
/// let ada = try KnownPeople.referenceDescriptor(in: FaceImage(contentsOfFile: "ada.jpg"), detector: detector)
/// let known = KnownPeople(people: [KnownPeople.Person(name: "Ada", descriptors: [ada])])
/// for face in try detector.process(FaceImage(contentsOfFile: "party.jpg")) {
///     print(known.match(face)?.name ?? "unknown")
/// }
/// ```
public struct KnownPeople: Sendable {
    /// dlib's documented threshold: "same person" below 0.6 on the LFW benchmark.
    public static let defaultTolerance = 0.6

    /// A face's nearest known person.
    public struct Match: Equatable, Sendable {
        /// The person's name; `nil` when the nearest is farther than the tolerance.
        public var name: String?
        /// The distance to the nearest known person's closest reference descriptor.
        public var distance: Double
        /// The nearest person, whether or not within the tolerance.
        public var nearest: String

        public init(name: String?, distance: Double, nearest: String) {
            self.name = name
            self.distance = distance
            self.nearest = nearest
        }
    }

    /// One known person and the descriptors of their reference images.
    public struct Person: Sendable {
        public var name: String
        public var descriptors: [FaceDescriptor]

        public init(name: String, descriptors: [FaceDescriptor]) {
            self.name = name
            self.descriptors = descriptors
        }
    }

    public let people: [Person]
    /// Largest distance at which a face is given the nearest person's name.
    public let tolerance: Double

    public var names: [String] { people.map(\.name) }

    public init(people: [Person], tolerance: Double = KnownPeople.defaultTolerance) {
        self.people = people
        self.tolerance = tolerance
    }

    /// The nearest known person to `descriptor`, named when within the tolerance.
    public func match(_ descriptor: FaceDescriptor) -> Match {
        var best = (distance: Double.infinity, name: "")
        for person in people {
            for reference in person.descriptors {
                let distance = descriptor.distance(to: reference)
                if distance < best.distance { best = (distance, person.name) }
            }
        }
        return Match(name: best.distance <= tolerance ? best.name : nil, distance: best.distance, nearest: best.name)
    }

    /// The match of `face`, `nil` when it has no descriptor.
    public func match(_ face: Face) -> Match? { face.descriptor.map(match) }

    /// The match of the mean of `descriptors` (a track's), `nil` when there are none.
    public func match(_ descriptors: [FaceDescriptor]) -> Match? {
        descriptors.isEmpty ? nil : match(FaceDescriptor.mean(of: descriptors))
    }

    /// Why an image cannot be a reference photo.
    public enum ReferenceProblem: Error, Equatable, Sendable, CustomStringConvertible {
        /// The detector failed on it.
        case unreadable(FaceKitError)
        case noFace
        /// More than one face: which would be the person is not known.
        case severalFaces(Int)
        /// The one face's landmarks are implausible (mostly covered, turned away), so it has no
        /// descriptor.
        case notDescribed

        public var description: String {
            switch self {
            case .unreadable(let error): error.description
            case .noFace: "no face found"
            case .severalFaces(let count): "\(count) faces found, and a reference needs one"
            case .notDescribed: "the face's landmarks are implausible, so it cannot be described"
            }
        }
    }

    /// The descriptor of the one face in `image`, found by `detector`, which must compute
    /// descriptors.
    public static func referenceDescriptor(in image: FaceImage, detector: FaceDetector) throws(ReferenceProblem)
        -> FaceDescriptor
    {
        try referenceDescriptor(detector: detector) { () throws(FaceKitError) in try detector.process(image) }
    }

    /// ``referenceDescriptor(in:detector:)`` for the image file at `path`, decoded as
    /// ``FaceDetector/process(contentsOfFile:maxPixels:)-3140o`` decodes it.
    public static func referenceDescriptor(ofContentsOfFile path: String, detector: FaceDetector)
        throws(ReferenceProblem) -> FaceDescriptor
    {
        try referenceDescriptor(detector: detector) { () throws(FaceKitError) in try detector.process(contentsOfFile: path) }
    }

    private static func referenceDescriptor(
        detector: FaceDetector, faces find: () throws(FaceKitError) -> [Face]
    ) throws(ReferenceProblem) -> FaceDescriptor {
        precondition(detector.options.descriptorMode == .all, "KnownPeople: the detector must compute descriptors")
        let faces: [Face]
        do {
            faces = try find()
        } catch {
            throw .unreadable(error)
        }
        guard faces.count == 1 else { throw faces.isEmpty ? .noFace : .severalFaces(faces.count) }
        guard let descriptor = faces[0].descriptor else { throw .notDescribed }
        return descriptor
    }
}
