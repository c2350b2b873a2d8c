import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKit

/// The `async` photo API on the development identities (photos/identities: reference photos of
/// 5 people in train/, other photos of them in test/): ``FaceDetector/process(contentsOfFile:maxPixels:)``
/// awaited, ``FaceDetector/photos(ofContentsOfFiles:maxPixels:)``, ``FaceClustering/people(inPhotos:detector:)``
/// and ``KnownPeople/read(folder:detector:tolerance:)``, each cancelled part way too.
@Suite("Async photos", .needsModels, .needsSharedData)
struct AsyncPhotoTests {
    static let identities = TestData.shared("photos/identities")

    static func detector(descriptors: Bool = true) throws -> FaceDetector {
        var options = FaceDetectorOptions()
        options.descriptorMode = descriptors ? .all : .none
        return try FaceDetector(options: options, models: ModelLocator(directory: TestData.models))
    }

    /// Seconds `detector` takes over `photo` now, on this machine as loaded as it is: what a
    /// cancelled run's wait is measured against.
    static func secondsToProcess(_ photo: String, detector: FaceDetector) async throws -> TimeInterval {
        let start = Date()
        _ = try await detector.process(contentsOfFile: photo)
        return Date().timeIntervalSince(start)
    }

    /// How long a cancelled run of 200 photos may take to stop: 20 photos' time (10 s at least),
    /// a tenth of running them all, so that a loaded machine cannot fail a run that did stop.
    static func stopBound(_ onePhoto: TimeInterval) -> TimeInterval { max(10, 20 * onePhoto) }

    /// Runs `body` with a new empty folder, removed after.
    static func withTemporaryFolder(_ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facekit-async-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await body(folder)
    }

    /// Whether `a` and `b` are the same faces: equal in all but the descriptors' last bits, which
    /// depend on how many threads OpenBLAS splits a product over, a setting of the whole process
    /// that the `facekit` commands other tests run meanwhile in this process change
    /// (``BLASSetting``; an awaited call cannot hold it).
    static func same(_ a: [Face], _ b: [Face]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { first, second in
            var (withoutFirst, withoutSecond) = (first, second)
            (withoutFirst.descriptor, withoutSecond.descriptor) = (nil, nil)
            guard withoutFirst == withoutSecond else { return false }
            switch (first.descriptor, second.descriptor) {
            case (nil, nil): return true
            case let (one?, other?): return zip(one.values, other.values).allSatisfy { abs($0 - $1) < 1e-5 }
            default: return false
            }
        }
    }

    /// The photos of train/, person by person: (person, path).
    static func trainPhotos() throws -> [(person: String, path: String)] {
        let train = identities + "/train"
        return try FileManager.default.contentsOfDirectory(atPath: train).sorted().flatMap { person in
            try FileManager.default.contentsOfDirectory(atPath: train + "/" + person).sorted().map {
                (person, train + "/" + person + "/" + $0)
            }
        }
    }

    @Test("an awaited process(contentsOfFile:) finds what the synchronous one finds, and throws what it throws")
    func awaitedPhoto() async throws {
        let detector = try Self.detector()
        let path = Self.identities + "/test/obama_and_biden.jpg"
        let awaited = try await detector.process(contentsOfFile: path)
        #expect(awaited.count >= 2)
        #expect(Self.same(awaited, try { try detector.process(contentsOfFile: path) }()))
        let image = try FaceImage(contentsOfFile: path)
        #expect(Self.same(try await detector.process(image), awaited))
        await #expect(throws: FaceKitError.self) { try await detector.process(contentsOfFile: Self.identities + "/missing.jpg") }
    }

    @Test("photos(ofContentsOfFiles:) gives each photo's faces in order, and a missing photo's error without stopping")
    @MainActor
    func photoSequence() async throws {
        let detector = try Self.detector(descriptors: false)
        let test = Self.identities + "/test"
        let paths = try FileManager.default.contentsOfDirectory(atPath: test).sorted().map { test + "/" + $0 }
        let given = [paths[0], test + "/missing.jpg"] + paths.dropFirst()
        var seen: [DetectedPhoto] = []
        // Iterated from the main actor: the photos are analysed on the sequence's own queue.
        for await photo in detector.photos(ofContentsOfFiles: given) { seen.append(photo) }
        #expect(seen.map(\.path) == given)
        for photo in seen {
            if photo.path.hasSuffix("missing.jpg") {
                #expect(throws: FaceKitError.self) { try photo.faces() }
            } else {
                #expect(try photo.faces() == (try { try detector.process(contentsOfFile: photo.path) }()), "\(photo.path)")
            }
        }
        #expect(try seen.first { $0.path.hasSuffix("obama_and_biden.jpg") }!.faces().count == 3)
    }

    @Test("cancelling the task that iterates photos(ofContentsOfFiles:) ends it before the next photo")
    func photoSequenceCancelled() async throws {
        let detector = try Self.detector(descriptors: false)
        let paths = Array(repeating: Self.identities + "/test/obama_and_biden.jpg", count: 200)
        let started = AsyncStream<Void>.makeStream()
        let loop = Task {
            var count = 0
            for await _ in detector.photos(ofContentsOfFiles: paths) {
                count += 1
                if count == 1 { started.continuation.yield() }
            }
            return count
        }
        for await _ in started.stream { break }
        loop.cancel()
        let count = await loop.value
        #expect(count >= 1 && count <= 10, "\(count) of 200 photos after cancellation: one or two, more on a loaded machine")
    }

    @Test("people(inPhotos:) groups the 9 reference photos of 5 people into those 5 people")
    func grouping() async throws {
        let photos = try Self.trainPhotos()
        #expect(photos.count == 9)
        let grouped = try await FaceClustering().people(
            inPhotos: photos.map(\.path) + [Self.identities + "/missing.jpg"], detector: Self.detector())
        #expect(grouped.failures.map(\.path) == [Self.identities + "/missing.jpg"])
        #expect(grouped.faces.count == 9)
        #expect(grouped.faces.allSatisfy { $0.person != nil && $0.index == 0 })
        #expect(grouped.count == 5)
        let personOf = Dictionary(uniqueKeysWithValues: photos.map { ($0.path, $0.person) })
        for faces in grouped.people {
            #expect(Set(faces.map { personOf[$0.path]! }).count == 1, "one person: \(faces.map(\.path))")
        }
        #expect(grouped.people.map(\.count) == [2, 2, 2, 2, 1])
    }

    @Test("people(inPhotos:) needs a detector that describes faces")
    func groupingWithoutDescriptors() async throws {
        let detector = try Self.detector(descriptors: false)
        await #expect(throws: FaceKitError.self) {
            try await FaceClustering().people(inPhotos: [Self.identities + "/test/obama1.jpg"], detector: detector)
        }
    }

    @Test("cancelling people(inPhotos:) stops it with CancellationError")
    func groupingCancelled() async throws {
        let detector = try Self.detector()
        let photo = Self.identities + "/test/obama_and_biden.jpg"
        let onePhoto = try await Self.secondsToProcess(photo, detector: detector)
        let paths = Array(repeating: photo, count: 200)
        let grouping = Task { try await FaceClustering().people(inPhotos: paths, detector: detector) }
        try await Task.sleep(for: .milliseconds(300))
        let cancelled = Date()
        grouping.cancel()
        await #expect(throws: CancellationError.self) { try await grouping.value }
        #expect(Date().timeIntervalSince(cancelled) < Self.stopBound(onePhoto), "cancelled between two photos, not after 200")
    }

    @Test("KnownPeople.read(folder:) reads one folder or one photo per person, with notes, and names test/'s faces")
    func knownFolder() async throws {
        try await Self.withTemporaryFolder { root in
            let known = root + "/known"
            let train = Self.identities + "/train"
            try FileManager.default.createDirectory(atPath: known, withIntermediateDirectories: true)
            for person in ["biden", "obama", "kit_harington"] {
                try FileManager.default.copyItem(atPath: train + "/" + person, toPath: known + "/" + person)
            }
            try FileManager.default.copyItem(atPath: train + "/rose_leslie/img1.jpg", toPath: known + "/rose_leslie.jpg")
            try FileManager.default.createDirectory(atPath: known + "/Nobody", withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: Self.identities + "/test/obama_and_biden.jpg", toPath: known + "/obama/group.jpg")
            let detector = try Self.detector()
            let (people, notes) = try await KnownPeople.read(folder: known, detector: detector)
            #expect(people.names == ["biden", "kit_harington", "obama", "rose_leslie"])
            #expect(people.people.map(\.descriptors.count) == [2, 2, 2, 1])
            #expect(
                notes.map(\.description) == [
                    "\(known)/Nobody: skipped: the folder holds no image, so Nobody cannot be named",
                    "\(known)/obama/group.jpg: skipped as a reference image of obama: 3 faces found, and a reference needs one",
                ])
            let faces = try await detector.process(contentsOfFile: Self.identities + "/test/kit_with_rose.jpg")
            #expect(faces.map { people.match($0)?.name } == ["rose_leslie", "kit_harington"])
            // The synchronous reading is the same.
            let again: (people: KnownPeople, notes: [KnownPeople.FolderNote]) = try { try KnownPeople.read(folder: known, detector: detector) }()
            let againNotes = again.notes
            #expect(again.people.names == people.names && againNotes == notes)
        }
    }

    @Test("KnownPeople.read(folder:) throws a FolderError for a missing folder, a file, an empty folder")
    func knownFolderErrors() async throws {
        try await Self.withTemporaryFolder { root in
            let detector = try Self.detector()
            #expect(throws: KnownPeople.FolderError.noSuchFolder(root + "/nowhere")) {
                try KnownPeople.read(folder: root + "/nowhere", detector: detector)
            }
            #expect(throws: KnownPeople.FolderError.noImages(root)) { try KnownPeople.read(folder: root, detector: detector) }
            let file = root + "/Ada.jpg"
            try FileManager.default.copyItem(atPath: TestData.fixture("astronaut.png"), toPath: file)
            #expect(throws: KnownPeople.FolderError.notAFolder(file)) { try KnownPeople.read(folder: file, detector: detector) }
        }
    }

    @Test("cancelling KnownPeople.read(folder:) stops it with CancellationError")
    func knownFolderCancelled() async throws {
        try await Self.withTemporaryFolder { root in
            let photo = Self.identities + "/train/obama/obama.jpg"
            for index in 0..<200 { try FileManager.default.copyItem(atPath: photo, toPath: root + "/person\(index).jpg") }
            let detector = try Self.detector()
            let onePhoto = try await Self.secondsToProcess(photo, detector: detector)
            let reading = Task { try await KnownPeople.read(folder: root, detector: detector) }
            try await Task.sleep(for: .milliseconds(300))
            let cancelled = Date()
            reading.cancel()
            await #expect(throws: CancellationError.self) { try await reading.value }
            #expect(Date().timeIntervalSince(cancelled) < Self.stopBound(onePhoto), "cancelled between two photos, not after 200")
        }
    }
}
