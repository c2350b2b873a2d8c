import Foundation
import Testing
import FaceKitDatasets
import FaceKitTestSupport

@testable import FaceKit

@Suite("NativeFaceDescriptor")
struct NativeFaceDescriptorTests {
    /// The one face of a photo in ../shared/data/photos/face_recognition, and its descriptor.
    private static func descriptor(of name: String, network: NativeFaceDescriptor) throws -> [Float] {
        let image = try FaceImage(contentsOfFile: TestData.shared("photos/face_recognition/\(name)"))
        let detector = try FaceDetector(models: ModelLocator(directory: TestData.models))
        let faces = try detector.analyse(image)
        try #require(faces.count == 1, "\(name): \(faces.count) faces")
        return try network.descriptor(in: image, shape: faces[0].shape)
    }

    private static func network() throws -> NativeFaceDescriptor {
        try NativeFaceDescriptor(
            modelPath: ModelLocator(directory: TestData.models).path(for: .faceDescriptor))
    }

    /// face_recognition's own expectations (../shared/data/expected/face_recognition.md).
    @Test("puts two photos of Obama within 0.6 and Biden beyond it", .needsModels, .needsSharedData)
    func distances() throws {
        let network = try Self.network()
        let obama = try Self.descriptor(of: "obama.jpg", network: network)
        #expect(obama.count == 128)
        let sameObama = try Self.descriptor(of: "obama.jpg", network: network)
        #expect(FaceDescriptor.distance(obama, sameObama) < 1e-5, "deterministic")
        for (name, same) in [("obama2.jpg", true), ("obama3.jpg", true), ("biden.jpg", false)] {
            let distance = FaceDescriptor.distance(obama, try Self.descriptor(of: name, network: network))
            #expect((distance < 0.6) == same, "obama.jpg - \(name): \(distance)")
        }
    }

    /// At one BLAS thread (a re-identifying tracker's, several workers'), held for the comparison:
    /// OpenBLAS's products differ in their last bits between one thread and several, dlib's as
    /// much as FaceKit's (``BLASSetting``). Not at every core too: the `facekit` commands that
    /// other tests run in this process set one thread whenever they track with re-identification.
    @Test("gives dlib's own network's values, bit for bit", .needsModels, .needsSharedData)
    func sameAsDlib() throws {
        let modelPath = try ModelLocator(directory: TestData.models).path(for: .faceDescriptor)
        let network = try NativeFaceDescriptor(modelPath: modelPath)
        let reference = try DlibFaceDescriptor(modelPath: modelPath)
        let detector = try FaceDetector(models: ModelLocator(directory: TestData.models))
        var faces = 0
        for folder in ["photos/face_recognition", "photos/dlib-faces"] {
            let directory = TestData.shared(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            where name.hasSuffix(".jpg") {
                let image = try FaceImage(contentsOfFile: directory + "/" + name)
                for face in try detector.analyse(image) {
                    let (values, dlibValues) = try BLASSetting.with(threads: 1) {
                        (try network.descriptor(in: image, shape: face.shape),
                         try reference.descriptor(in: image, points: face.shape.points))
                    }
                    #expect(values == dlibValues, "\(name)")
                    faces += 1
                }
            }
        }
        #expect(faces >= 30, "too few faces for the comparison to say anything: \(faces)")
    }

    @Test("refuses a missing model and a file that is not the network", .needsModels)
    func badModels() throws {
        #expect(throws: FaceKitError.self) { try NativeFaceDescriptor(modelPath: "/nonexistent/model.dat") }
        do {
            _ = try NativeFaceDescriptor(
                modelPath: ModelLocator(directory: TestData.models).path(for: .landmarks68))
            Issue.record("a shape predictor was accepted as the face descriptor")
        } catch {
            guard case .modelUnavailable = error else { Issue.record("\(error)"); return }
        }
    }

    @Test("refuses landmarks that all coincide, naming the cause", .needsModels)
    func degeneratePoints() throws {
        let network = try Self.network()
        let image = try FaceImage(contentsOfFile: TestData.fixture("astronaut.png"))
        let shape = FaceShape(points: Array(repeating: CGPoint(x: 10, y: 10), count: 68))
        #expect {
            try network.descriptor(in: image, shape: shape)
        } throws: { error in
            guard case .native(let reason) = error as? FaceKitError else { return false }
            return reason.contains("span")
        }
    }
}
