import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKit

/// ``KnownPeople`` as an application uses it, on the development identities (photos/identities:
/// reference photos in train/, other photos of the same people in test/).
@Suite("KnownPeople", .needsModels, .needsSharedData)
struct KnownPeopleLibraryTests {
    static let identities = TestData.shared("photos/identities")

    static func detector() throws -> FaceDetector {
        var options = FaceDetectorOptions()
        options.descriptorMode = .all
        return try FaceDetector(options: options, models: ModelLocator(directory: TestData.models))
    }

    static func person(_ name: String, detector: FaceDetector) throws -> KnownPeople.Person {
        let folder = identities + "/train/" + name
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        return KnownPeople.Person(
            name: name,
            descriptors: try files.map { file in
                try KnownPeople.referenceDescriptor(ofContentsOfFile: folder + "/" + file, detector: detector)
            })
    }

    @Test("faces of known people take their names from reference photos; a stranger takes none")
    func naming() throws {
        let detector = try Self.detector()
        let known = KnownPeople(people: try ["obama", "biden"].map { try Self.person($0, detector: detector) })
        #expect(known.names == ["obama", "biden"])
        let obama = try detector.process(contentsOfFile: Self.identities + "/test/obama1.jpg")
        #expect(obama.map { known.match($0)?.name } == ["obama"])
        let both = try detector.process(contentsOfFile: Self.identities + "/test/obama_and_biden.jpg")
        #expect(Set(both.compactMap { known.match($0)?.name }) == ["obama", "biden"])
        let stranger = try detector.process(contentsOfFile: Self.identities + "/test/alex_lacamoire1.jpg")
        let match = try #require(stranger.count == 1 ? known.match(stranger[0]) : nil)
        #expect(match.name == nil && match.distance > known.tolerance, "\(match)")
    }

    @Test("a reference photo must hold exactly one face")
    func referenceProblems() throws {
        let detector = try Self.detector()
        let group = Self.identities + "/test/obama_and_biden.jpg"
        let faces = try detector.process(contentsOfFile: group).count
        #expect(faces >= 2)
        #expect(throws: KnownPeople.ReferenceProblem.severalFaces(faces)) {
            try KnownPeople.referenceDescriptor(ofContentsOfFile: group, detector: detector)
        }
        let grey = [UInt8](repeating: 128, count: 320 * 240)
        let blank = try grey.withUnsafeBytes { try FaceImage(pixels: $0, width: 320, height: 240, bytesPerRow: 320, format: .gray8) }
        #expect(throws: KnownPeople.ReferenceProblem.noFace) { try KnownPeople.referenceDescriptor(in: blank, detector: detector) }
        #expect(throws: KnownPeople.ReferenceProblem.self) {
            try KnownPeople.referenceDescriptor(ofContentsOfFile: Self.identities + "/missing.jpg", detector: detector)
        }
    }
}
