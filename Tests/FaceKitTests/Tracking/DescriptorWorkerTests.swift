import Foundation
import Testing
import FaceKitTestSupport

@testable import FaceKit

@Suite("Descriptors computed in the background")
struct DescriptorWorkerTests {
    private static func unit(_ axis: Int) -> [Float] {
        var values = [Float](repeating: 0, count: 128)
        values[axis] = 1
        return values
    }

    private static func box(_ x: Double) -> CGRect { CGRect(x: x, y: 50, width: 80, height: 80) }

    @Test("the tracker waits for a descriptor only when a decision needs it")
    func waitsOnlyWhenNeeded() {
        var tracker = BoxTracker(configuration: TrackerConfiguration(maximumMissedFrames: 2))
        // A new face with nothing to compare it with: its descriptor only joins the track's
        // gallery, so the tracker goes on while the descriptor is still computing.
        let first = PendingDescriptor(), second = PendingDescriptor()
        // Delivered later from another thread (a tracker that waited would see them only then).
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
            first.fulfil(Self.unit(0))
            second.fulfil(Self.unit(0))
        }
        let firstIDs = tracker.update(boxes: [Self.box(100)], timestampMs: 0) { _ in first }
        #expect(firstIDs == [0])
        #expect(!first.isReady, "the tracker waited for a descriptor no decision needed")
        for frame in 1...4 { _ = tracker.update(boxes: [], timestampMs: Double(frame) * 40) }
        #expect(tracker.lostTrackIDs == [0], "a track whose descriptor is computing still waits among the lost ones")

        // A face far away while track 0 is lost: who it is needs both descriptors now.
        let secondIDs = tracker.update(boxes: [Self.box(500)], timestampMs: 400) { _ in second }
        #expect(first.isReady && second.isReady)
        #expect(secondIDs == [0], "the same descriptor brings the lost track back")
    }

    /// obama.jpg and its one face's 68 points.
    private static func obama() throws -> (image: FaceImage, shape: FaceShape) {
        let image = try FaceImage(contentsOfFile: TestData.shared("photos/face_recognition/obama.jpg"))
        let faces = try FaceDetector(models: ModelLocator(directory: TestData.models)).analyse(image)
        try #require(faces.count == 1)
        return (image, faces[0].shape)
    }

    private static func descriptorModel() throws -> String {
        try ModelLocator(directory: TestData.models).path(for: .faceDescriptor)
    }

    @Test("a worker gives the descriptors computed in line", .needsModels, .needsSharedData)
    func sameAsInLine() throws {
        let (image, shape) = try Self.obama()
        let path = try Self.descriptorModel()
        let worker = DescriptorWorker(modelPath: path)
        let pending = (0..<3).map { _ in worker.describe(shape, in: image) }
        let inLine = try NativeFaceDescriptor(modelPath: path).descriptor(in: image, shape: shape)
        for descriptor in pending { #expect(descriptor.value == inLine) }
        #expect(worker.takeError() == nil)
    }

    @Test("a thread waiting for a descriptor runs the newest queued passes itself", .needsModels, .needsSharedData)
    func waitingThreadHelps() throws {
        let (image, shape) = try Self.obama()
        let path = try Self.descriptorModel()
        let worker = DescriptorWorker(modelPath: path)
        worker.waitForAll()  // the network read and copied for helping
        let pending = (0..<7).map { _ in worker.describe(shape, in: image) }
        // The worker runs them oldest first; the reader of the newest takes it (and any other
        // still queued) instead of waiting behind the six before it.
        let newest = pending[6].value
        #expect(pending.prefix(6).contains { !$0.isReady }, "the newest pass was read only after all the others")
        let inLine = try NativeFaceDescriptor(modelPath: path).descriptor(in: image, shape: shape)
        #expect(newest == inLine)
        for descriptor in pending { #expect(descriptor.value == inLine) }
        #expect(worker.takeError() == nil)
    }

    @Test("a network that cannot be read fails every pass with the reason", .needsModels, .needsSharedData)
    func unreadableNetwork() throws {
        let (image, shape) = try Self.obama()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("worker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let damaged = folder.appendingPathComponent("dlib_face_recognition_resnet_model_v1.dat").path
        try Data("not a network".utf8).write(to: URL(fileURLWithPath: damaged))
        let worker = DescriptorWorker(modelPath: damaged)
        for _ in 0..<2 {
            #expect(worker.describe(shape, in: image).value == nil)
            let error = try #require(worker.takeError(), "a pass without its network said nothing")
            #expect(error.description.contains(damaged))
        }
    }
}
