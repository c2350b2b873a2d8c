import Foundation
import Testing
import FaceKitDatasets
import FaceKitTestSupport
@testable import FaceKit

/// End-to-end detection on real photos. Expected numbers for obama.jpg come from
/// ageitgey/face_recognition's own tests (../shared/data/expected/face_recognition.md).
@Suite("FaceDetector", .needsModels)
struct FaceDetectorTests {
    static func detector(_ configure: (inout FaceDetectorOptions) -> Void = { _ in }) throws -> FaceDetector {
        var options = FaceDetectorOptions()
        configure(&options)
        return try FaceDetector(options: options, models: ModelLocator(directory: TestData.models))
    }

    @Test("HOG at 2x finds obama.jpg's face where face_recognition does", .needsSharedData)
    func obamaParity() throws {
        let image = try FaceImage(contentsOfFile: TestData.shared("photos/face_recognition/obama.jpg"))
        #expect(image.width == 910 && image.height == 1137)
        let found = try NativeDlibDetector(kind: .hog, modelPath: nil).detect(in: image, scale: 2)
        try #require(found.count == 1)
        // face_recognition: (top, right, bottom, left) = (142, 617, 409, 349), dlib's inclusive corners.
        let box = found[0].box
        #expect(abs(box.minX - 349) <= 3 && abs(box.minY - 142) <= 3)
        #expect(abs(box.maxX - 618) <= 3 && abs(box.maxY - 410) <= 3)
    }

    @Test("the 68-point model places obama.jpg's jaw where face_recognition does", .needsSharedData)
    func obamaLandmarkParity() throws {
        let image = try FaceImage(contentsOfFile: TestData.shared("photos/face_recognition/obama.jpg"))
        let predictor = try NativeShapePredictor(modelPath: ModelLocator(directory: TestData.models).path(for: .landmarks68))
        let points = try predictor.points(in: image, box: CGRect(x: 349, y: 142, width: 269, height: 268))
        let chin: [(Double, Double)] = [
            (369, 220), (372, 254), (378, 289), (384, 322), (395, 353), (414, 382), (437, 407), (464, 424), (495, 428),
            (527, 420), (552, 399), (576, 372), (594, 344), (604, 314), (610, 282), (613, 250), (615, 219),
        ]
        try #require(points.count == 68)
        for (i, (x, y)) in chin.enumerated() {
            #expect(abs(points[i].x - x) <= 1 && abs(points[i].y - y) <= 1, "jaw point \(i): \(points[i])")
        }
    }

    @Test("default options find one frontal face in obama.jpg, with landmarks in the right places", .needsSharedData)
    func obamaDefault() throws {
        let faces = try Self.detector { $0.landmarkMode = .all }
            .process(FaceImage(contentsOfFile: TestData.shared("photos/face_recognition/obama.jpg")))
        try #require(faces.count == 1)
        let face = faces[0]
        #expect(face.frame.intersectionOverUnion(CGRect(x: 349, y: 142, width: 269, height: 268)) > 0.7)
        #expect(abs(face.headEulerAngleY) < 20 && abs(face.headEulerAngleZ) < 10)
        let leftEye = try #require(face.landmark(ofType: .leftEye)).position
        let rightEye = try #require(face.landmark(ofType: .rightEye)).position
        let nose = try #require(face.landmark(ofType: .noseBase)).position
        let mouth = try #require(face.landmark(ofType: .mouthBottom)).position
        #expect(leftEye.x > rightEye.x, "the subject's left eye is on the image's right")
        #expect(nose.y > leftEye.y && mouth.y > nose.y)
        #expect(face.frame.contains(nose))
    }

    @Test("a 54 px face in a 427 px photo is found at the default minimum face size", .needsSharedData)
    func smallFaceInSmallPhoto() throws {
        let image = try FaceImage(contentsOfFile: TestData.shared("photos/face_recognition/obama-240p.jpg"))
        let faces = try Self.detector().process(image)
        try #require(faces.count == 1)
        #expect(faces[0].frame.width < 60)
    }

    @Test("detectors sharing one landmark model, on two threads at once, find what a lone one finds")
    func sharedModels() async throws {
        let image = try FaceImage(contentsOfFile: TestData.fixture("astronaut.png"))
        let lone = try Self.detector { $0.landmarkMode = .all; $0.performanceMode = .accurate }
        let expected = try await lone.process(image)   // the async variant: the same faces
        let first = try Self.detector { $0.landmarkMode = .all; $0.performanceMode = .accurate }
        let second = try FaceDetector(sharingModelsWith: first)
        #expect(second.options == first.options)
        let results = try await withThrowingTaskGroup(of: [Face].self) { group in
            for detector in [first, second] {
                group.addTask { try (0..<2).flatMap { _ in try detector.process(image) } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // The CNN's score may differ in the 7th digit: OpenBLAS sums in another order when two
        // threads run. Everything built from the landmarks is identical.
        func withoutScore(_ faces: [Face]) -> [Face] { faces.map { var face = $0; face.detectionScore = 0; return face } }
        for faces in results {
            #expect(withoutScore(faces) == withoutScore(expected + expected))
            #expect(zip(faces, expected + expected).allSatisfy { abs($0.detectionScore - $1.detectionScore) < 1e-4 })
        }
    }

    @Test("one detector shared by four tasks at once finds in each what it finds alone")
    func sharedDetector() async throws {
        let image = try FaceImage(contentsOfFile: TestData.fixture("astronaut.png"))
        let detector = try Self.detector { $0.landmarkMode = .all }
        let expected = try await detector.process(image)   // the async variant: the same faces
        let results = try await withThrowingTaskGroup(of: [Face].self) { group in
            for _ in 0..<4 { group.addTask { try (0..<2).flatMap { _ in try detector.process(image) } } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 4)
        for faces in results { #expect(faces == expected + expected) }
    }

    @Test("probabilities are absent, never 0, and say why")
    func absentProbabilities() throws {
        let image = try FaceImage(contentsOfFile: TestData.fixture("astronaut.png"))
        let plain = try Self.detector().process(image)
        let classified = try Self.detector { $0.classificationMode = .all }.process(image)
        try #require(plain.count == 1 && classified.count == 1)
        for kind in Face.Probability.allCases {
            #expect(plain[0].probability(kind) == nil)
            #expect(plain[0].absenceReason(kind) == .notRequested)
            #expect(classified[0].absenceReason(kind) != .notRequested)
        }
        #expect(plain[0].trackingID == nil)
        #expect(plain[0].landmarks.isEmpty && plain[0].contours.isEmpty)
    }

    @Test("contours have ML Kit's 133 points, inside and around the face")
    func contours() throws {
        let faces = try Self.detector { $0.contourMode = .all }.process(FaceImage(contentsOfFile: TestData.fixture("astronaut.png")))
        try #require(faces.count == 1)
        #expect(faces[0].contours.count == 15)
        #expect(faces[0].contours.reduce(0) { $0 + $1.points.count } == 133)
        let nose = try #require(faces[0].contour(ofType: .noseBottom)).points[1]
        #expect(faces[0].frame.contains(nose))
    }

    @Test("a portrait stored sideways with EXIF orientation is analysed upright")
    func exifOrientation() throws {
        let detector = try Self.detector()
        let upright = try detector.process(FaceImage(contentsOfFile: TestData.fixture("astronaut-portrait.png")))
        let sideways = try detector.process(FaceImage(contentsOfFile: TestData.fixture("astronaut-portrait-exif6.jpg")))
        try #require(upright.count == 1 && sideways.count == 1)
        #expect(sideways[0].frame.intersectionOverUnion(upright[0].frame) > 0.8)
        #expect(abs(sideways[0].headEulerAngleZ) < 15)
    }

    @Test("grey, alpha and 16-bit images give the same face as the colour original",
          arguments: ["astronaut-gray.png", "astronaut-rgba.png", "astronaut-16bit.png", "astronaut.webp"])
    func variants(name: String) throws {
        let detector = try Self.detector()
        let reference = try detector.process(FaceImage(contentsOfFile: TestData.fixture("astronaut.png")))
        let variant = try detector.process(FaceImage(contentsOfFile: TestData.fixture(name)))
        try #require(reference.count == 1 && variant.count == 1)
        #expect(variant[0].frame.intersectionOverUnion(reference[0].frame) > 0.8)
    }

    @Test("face counts on photos with a known number of faces", .needsSharedData,
          arguments: [("photos/pyfeat/single_face.jpg", 1), ("photos/pyfeat/free-mountain-vector-01.jpg", 0),
                      ("photos/dlib-faces/dogs.jpg", 0), ("photos/face_recognition/two_people.jpg", 2),
                      ("photos/face_recognition/32bit.png", 1)])
    func faceCounts(path: String, expected: Int) throws {
        let faces = try Self.detector().process(FaceImage(contentsOfFile: TestData.shared(path)))
        #expect(faces.count == expected)
    }

    // The pyramid's rules, on the upright search they were written for: the turned passes of
    // orientation .any find a dog's head lying sideways in dogs.jpg and two 12-15 px specks at
    // the crowd's right edge at this size (docs/accuracy.md, "Finding every face").
    @Test("a finer search adds no false faces: dogs' heads and specks below minFaceSize stay out", .needsSharedData)
    func finerSearch() throws {
        let dogs = try FaceImage(contentsOfFile: TestData.shared("photos/dlib-faces/dogs.jpg"))
        let crowd = try FaceImage(contentsOfFile: TestData.shared("photos/dlib-faces/2008_004176.jpg"))
        for mode in FaceDetectorOptions.PerformanceMode.allCases {
            let detector = try Self.detector {
                $0.performanceMode = mode
                $0.minFaceSize = 0.05
                $0.orientationMode = .upright
            }
            // Searched at twice the default scale, the dogs' heads scored above the threshold.
            #expect(try detector.process(dogs).isEmpty, "\(mode)")
            // Seven labelled faces; accurate mode also reported a 6 px box at the top edge.
            let faces = try detector.process(crowd)
            #expect(faces.count == 7, "\(mode)")
            #expect(faces.allSatisfy { Double($0.frame.width) >= 0.05 * 480 * 0.8 / 2 }, "\(mode)")
        }
    }

    @Test("both modes find the five faces of multi_face.jpg, the one in sunglasses included", .needsSharedData)
    func sunglassesFace() throws {
        let image = try FaceImage(contentsOfFile: TestData.shared("photos/pyfeat/multi_face.jpg"))
        // The nose of the face in sunglasses (compreface/noses.csv, 000_5.jpg at 819 px wide).
        let nose = CGPoint(x: 219 * 1000 / 819.0, y: 105 * 1000 / 819.0)
        for mode in FaceDetectorOptions.PerformanceMode.allCases {
            let faces = try Self.detector { $0.performanceMode = mode }.process(image)
            #expect(faces.count == 5, "\(mode)")
            #expect(faces.contains { $0.frame.contains(nose) }, "\(mode): the face in sunglasses")
        }
        // dlib's HOG detector, FaceKit's before YuNet, misses it, even at its own threshold (its
        // scores are SVM margins, not YuNet's).
        var hogOptions = FaceDetectorOptions()
        hogOptions.minDetectionScore = 0
        let hog = try FaceDetector(options: hogOptions, models: ModelLocator(directory: TestData.models), detector: .dlib)
            .process(image)
        #expect(hog.count == 4 && !hog.contains { $0.frame.contains(nose) })
    }

    @Test("every face is scored in 0 ... 1, and none below the minimum detection score unless dlib's CNN kept it", .needsSharedData)
    func detectionScores() throws {
        let image = try FaceImage(contentsOfFile: TestData.shared("photos/dlib-faces/bald_guys.jpg"))
        let all = try Self.detector { $0.minDetectionScore = 0.3 }.process(image)
        let sure = try Self.detector { $0.minDetectionScore = 0.9 }.examine(image)
        #expect(all.allSatisfy { (0.3...1).contains($0.detectionScore) })
        #expect(sure.allSatisfy { $0.face.detectionScore >= 0.9 || ($0.checkConfidence ?? -1) >= CNNFaceCheck.minimumConfidence })
        #expect(sure.count < all.count, "a higher threshold drops the least sure faces")
    }

    @Test("fast mode finds the labelled faces in dlib's testing.xml", .needsSharedData)
    func testingXMLRecall() throws {
        let labels = try LabelledBoxes(contentsOf: TestData.shared("photos/dlib-faces/testing.xml"))
        let detector = try Self.detector()
        var tally = DetectionTally()
        for image in labels.images {
            let faces = try detector.process(FaceImage(contentsOfFile: image.file))
            tally.add(detections: faces.map(\.frame), labels: image.boxes)
        }
        #expect(tally.labelled == 25)
        #expect(tally.recall >= 0.95, "found \(tally.found) of \(tally.labelled)")
        #expect(tally.falsePositives <= 2)
    }

    @Test("a missing model is a clear error that says how to get it")
    func missingModel() {
        var locator = ModelLocator(directory: "/nonexistent")
        locator.overrides[.landmarks68] = "/nonexistent/shape_predictor_68_face_landmarks.dat"
        #expect {
            try FaceDetector(models: locator)
        } throws: { error in
            guard case .modelUnavailable(let name, _) = error as? FaceKitError else { return false }
            return name == "shape_predictor_68_face_landmarks.dat"
        }
    }

    @Test("without dlib's CNN a photo detector is an error naming it; a tracking one, which takes no third look, is made", .needsModels)
    func missingCNN() throws {
        let folder = "/nonexistent/facekit-models"
        var missing = ModelLocator(searchPath: [folder])
        for model in ModelLocator.Model.allCases where model != .cnnFaceDetector {
            missing.overrides[model] = try ModelLocator(directory: TestData.models).path(for: model)
        }
        #expect {
            try FaceDetector(models: missing)
        } throws: { error in
            guard case .modelUnavailable(let name, let reason) = error as? FaceKitError else { return false }
            return name == ModelLocator.Model.cnnFaceDetector.rawValue && reason.contains(folder)
                && reason.contains("scripts/fetch-models")
        }
        var tracking = FaceDetectorOptions()
        tracking.isTrackingEnabled = true
        _ = try FaceDetector(options: tracking, models: missing)
    }

    @Test(
        "a YuNet file that is truncated or not ONNX is an error naming the file",
        .enabled(if: TestData.hasModels, "model files not found: run scripts/setup"),
        arguments: ["truncated", "text"])
    func brokenDetectorModel(kind: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facekit-yunet-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/yunet_n_320_320.onnx"
        let shipped = TestData.repository.appendingPathComponent("Sources/FaceKit/BundledModels/yunet_n_320_320.onnx").path
        let contents: Data
        switch kind {
        case "truncated": contents = try Data(contentsOf: URL(fileURLWithPath: shipped)).prefix(20_000)
        default: contents = Data("not a network\n".utf8)
        }
        try contents.write(to: URL(fileURLWithPath: path))
        var locator = ModelLocator(directory: TestData.models)
        locator.overrides[.faceDetector] = path
        #expect {
            try FaceDetector(models: locator)
        } throws: { error in
            guard case .modelUnavailable(let name, let reason) = error as? FaceKitError else { return false }
            return name == path && reason.contains(path)
        }
    }
}
