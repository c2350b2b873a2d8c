import FaceKitDatasets
import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKit

/// Faces at any roll, in close-ups and with closed eyes, with the default options: a photo
/// turned a quarter or half turn, a face the frame cuts, a closed-eyed stranger. A turned face is
/// measured from an upright view of it, so its landmarks, angles and probabilities are the
/// upright face's, turned.
@Suite("Faces at any angle and in close-ups", .needsModels)
struct AnyOrientationTests {
    static func detector(_ configure: (inout FaceDetectorOptions) -> Void = { _ in }) throws -> FaceDetector {
        var options = FaceDetectorOptions()
        options.landmarkMode = .all
        options.classificationMode = .all
        configure(&options)
        return try FaceDetector(options: options, models: ModelLocator(directory: TestData.models))
    }

    /// `point` of the photo turned `degrees` clockwise, taken back to the upright photo.
    static func upright(_ point: CGPoint, turned degrees: Int, upright: FaceImage, turnedImage: FaceImage) -> CGPoint {
        let radians = Double(degrees) * .pi / 180
        let (c, s) = (cos(radians), sin(radians))
        let (dx, dy) = (point.x - Double(turnedImage.width) / 2, point.y - Double(turnedImage.height) / 2)
        return CGPoint(x: Double(upright.width) / 2 + c * dx + s * dy, y: Double(upright.height) / 2 - s * dx + c * dy)
    }

    /// The angle `degrees` as ML Kit's roll changes with it: a clockwise turn is negative, in -180 ... 180.
    static func rollDifference(_ a: Double, _ b: Double) -> Double { remainder(a - b, 360) }

    @Test(
        "a face turned a quarter, half or three quarter turn, or between them, is found and measured as upright",
        arguments: [90, 180, 270, 45, 135, 225])
    func quarterTurns(degrees: Int) throws {
        let detector = try Self.detector()
        let photo = PhotoVariant(image: try FaceImage(contentsOfFile: TestData.fixture("astronaut.png")), faces: [])
        let upright = try #require(try detector.process(photo.image).first)
        let turnedPhoto = try photo.turned(byDegrees: Double(degrees))
        let turnedFaces = try detector.process(turnedPhoto.image)
        try #require(turnedFaces.count == 1, "faces: \(turnedFaces.count)")
        let turned = turnedFaces[0]
        // Clockwise on screen is negative roll.
        #expect(abs(Self.rollDifference(turned.headEulerAngleZ, upright.headEulerAngleZ - Double(degrees))) < 3,
            "roll \(turned.headEulerAngleZ) against \(upright.headEulerAngleZ)")
        // The camera sees the turned face elsewhere in the frame: pitch and yaw move a little.
        #expect(abs(turned.headEulerAngleX - upright.headEulerAngleX) < 6, "pitch \(turned.headEulerAngleX)")
        #expect(abs(turned.headEulerAngleY - upright.headEulerAngleY) < 6, "yaw \(turned.headEulerAngleY)")
        let eyeDistance = try #require(upright.landmark(ofType: .leftEye)).position.distance(
            to: try #require(upright.landmark(ofType: .rightEye)).position)
        for landmark in upright.landmarks {
            let moved = try #require(turned.landmark(ofType: landmark.type), "\(landmark.type) missing")
            let back = Self.upright(moved.position, turned: degrees, upright: photo.image, turnedImage: turnedPhoto.image)
            #expect(back.distance(to: landmark.position) < 0.08 * eyeDistance, "\(landmark.type): \(back) against \(landmark.position)")
        }
        #expect(abs(try #require(turned.smilingProbability) - (upright.smilingProbability ?? 0)) < 0.1)
        #expect(abs(try #require(turned.leftEyeOpenProbability) - (upright.leftEyeOpenProbability ?? 0)) < 0.1)
        #expect(abs(try #require(turned.rightEyeOpenProbability) - (upright.rightEyeOpenProbability ?? 0)) < 0.1)
    }

    @Test("orientation upright searches upright faces only: a group photo turned a quarter turn keeps few", .needsSharedData)
    func uprightOnly() throws {
        let labels = try LabelledBoxes(contentsOf: TestData.shared("photos/dlib-faces/testing.xml"))
        let group = try #require(labels.images.first { $0.file.hasSuffix("2008_002506.jpg") })
        let photo = try PhotoVariant(image: FaceImage(contentsOfFile: group.file), faces: group.boxes.map(PhotoVariant.Face.init(box:)))
        let turned = try photo.turned(byDegrees: 90)
        let upright = try Self.detector { $0.orientationMode = .upright }
        #expect(photo.matches(try upright.process(photo.image).map(\.frame)).count == photo.faces.count)
        let found = turned.matches(try upright.process(turned.image).map(\.frame)).count
        // At most one of the three: a lying face the upright search scores from 0.3 up is looked
        // at upright by its eye line, where dlib's CNN may keep it.
        #expect(found <= 1, "\(found) of \(photo.faces.count) lying faces found by the upright search")
    }

    @Test(
        "every labelled face of a group photo is found with the photo turned", .needsSharedData,
        arguments: [90, 180, 270, 30, -60])
    func turnedGroupPhoto(degrees: Int) throws {
        let labels = try LabelledBoxes(contentsOf: TestData.shared("photos/dlib-faces/testing.xml"))
        let group = try #require(labels.images.first { $0.file.hasSuffix("2008_002506.jpg") })
        let photo = try PhotoVariant(image: FaceImage(contentsOfFile: group.file), faces: group.boxes.map(PhotoVariant.Face.init(box:)))
            .turned(byDegrees: Double(degrees))
        let faces = try Self.detector().process(photo.image)
        #expect(photo.matches(faces.map(\.frame)).count == photo.faces.count, "\(faces.count) faces for \(photo.faces.count) labels")
        #expect(faces.count == photo.faces.count)
    }

    @Test(
        "a group photo's small faces (eyes 19-21 px apart) get both eye probabilities, upright and turned", .needsSharedData,
        arguments: [0, 90, 180])
    func smallFacesEyes(degrees: Int) throws {
        let photo = try PhotoVariant(image: FaceImage(contentsOfFile: TestData.shared("photos/dlib-faces/2008_004176.jpg")), faces: [])
            .turned(byDegrees: Double(degrees))
        let faces = try Self.detector().process(photo.image)
        try #require(faces.count == 7, "faces: \(faces.count)")
        let eyes = faces.map { [$0.leftEyeOpenProbability, $0.rightEyeOpenProbability] }
        #expect(eyes.allSatisfy { $0.allSatisfy { $0 != nil } }, "eyes: \(eyes)")
        // Seven people posing, two of them squinting as they laugh (one behind glasses): at
        // least five read open.
        let open = eyes.filter { (($0[0] ?? 0) + ($0[1] ?? 0)) / 2 >= 0.5 }.count
        #expect(open >= 5, "eyes: \(eyes)")
    }

    @Test(
        "a group photo turned between upright and a quarter turn keeps its small faces, which score low upright",
        .needsSharedData, arguments: [30, -60])
    func diagonalGroupPhoto(degrees: Int) throws {
        let labels = try LabelledBoxes(contentsOf: TestData.shared("photos/dlib-faces/training.xml"))
        let group = try #require(labels.images.first { $0.file.hasSuffix("2007_007763.jpg") })
        let photo = try PhotoVariant(image: FaceImage(contentsOfFile: group.file), faces: group.boxes.map(PhotoVariant.Face.init(box:)))
            .reduced(toLongSide: CoverageSets.longestSide).turned(byDegrees: Double(degrees))
        let faces = try Self.detector().process(photo.image)
        #expect(photo.matches(faces.map(\.frame)).count == photo.faces.count, "\(faces.count) faces for \(photo.faces.count) labels")
    }

    /// obama.jpg cut as `CoverageSets.closeUp` cuts it (`larger`: 0.7 of the face's box around its
    /// centre; `eyes-nose`: cut below the nose), around face_recognition's box for the face.
    static func obamaCloseUp(_ cut: String) throws -> PhotoVariant {
        let file = TestData.shared("photos/face_recognition/obama.jpg")
        let box = CGRect(x: 349, y: 142, width: 269, height: 268)
        return try PhotoVariant(image: FaceImage(contentsOfFile: file), faces: [PhotoVariant.Face(box: box)])
            .cropped(to: CoverageSets.closeUp(cut, of: box))
    }

    @Test("a close-up whose face is larger than the picture is found; what lies outside it is absent", .needsSharedData)
    func closeUp() throws {
        let photo = try Self.obamaCloseUp("larger")
        let faces = try Self.detector().process(photo.image)
        try #require(faces.count == 1, "faces: \(faces.count)")
        let face = faces[0]
        #expect(photo.matches([face.frame]).count == 1)
        let picture = CGRect(x: 0, y: 0, width: photo.image.width, height: photo.image.height)
        #expect(!picture.contains(face.frame), "the box reaches outside the picture: \(face.frame)")
        #expect(face.landmarks.allSatisfy { picture.contains($0.position) })
        #expect(face.landmark(ofType: .leftEar) == nil && face.landmark(ofType: .rightEar) == nil)
        #expect(face.landmark(ofType: .noseBase) != nil)
    }

    @Test("a close-up cut below the nose keeps its eyes and says the mouth is outside the picture", .needsSharedData)
    func eyesAndNoseOnly() throws {
        let photo = try Self.obamaCloseUp("eyes-nose")
        let faces = try Self.detector().process(photo.image)
        try #require(faces.count == 1, "faces: \(faces.count)")
        #expect(faces[0].leftEyeOpenProbability != nil && faces[0].rightEyeOpenProbability != nil)
        #expect(faces[0].smilingProbability == nil && faces[0].absenceReason(.smiling) == .outsideImage)
        #expect(faces[0].landmark(ofType: .mouthBottom) == nil)
    }

    @Test(
        "a closed-eyed face that the diagonal view finds but its upright look drops is kept by the detection it displaced",
        .needsSharedData,
        arguments: [("closed_eye_1572.jpg_face_1.jpg", -30.0), ("closed_eye_1572.jpg_face_1.jpg", 60), ("closed_eye_1589.jpg_face_1.jpg", -60)])
    func displacedDetection(file: String, degrees: Double) throws {
        // As facekit-evaluate coverage makes them: the crop with a grey border of half its size,
        // turned. The diagonal view scores each 0.79-0.86, its upright look 0.68-0.78; the upright
        // or quarter-turned passes' detection it displaced passes its second look (0.84-0.85): at
        // 0.8, so that the score decides and not dlib's CNN, the third look.
        let path = TestData.shared.appendingPathComponent("eyes/cew-closed/" + file).path
        let photo = try PhotoVariant(image: FaceImage(contentsOfFile: path), faces: []).padded(by: CoverageSets.cropPadding)
            .turned(byDegrees: degrees)
        let detector = try Self.detector { $0.minDetectionScore = 0.8 }
        let faces = try detector.process(photo.image)
        try #require(faces.count == 1, "\(faces.count) faces in \(file) turned \(degrees)")
        let centre = CGPoint(x: Double(photo.image.width) / 2, y: Double(photo.image.height) / 2)
        #expect(faces[0].frame.contains(centre))
        #expect(faces[0].detectionScore >= detector.options.minDetectionScore)
    }

    @Test(
        "a closed-eyed face that both of YuNet's looks score under the minimum is kept by dlib's CNN",
        .needsSharedData,
        arguments: [("closed_eye_1572.jpg_face_1.jpg", 0.0), ("closed_eye_1578.jpg_face_1.jpg", 0), ("closed_eye_1572.jpg_face_1.jpg", 270)])
    func keptByTheCNN(file: String, degrees: Double) throws {
        // As facekit-evaluate coverage makes them. YuNet's better look scores each about 0.7, the
        // CNN's upright view about 1.0 (CNNFaceCheck).
        let path = TestData.shared.appendingPathComponent("eyes/cew-closed/" + file).path
        let photo = try PhotoVariant(image: FaceImage(contentsOfFile: path), faces: []).padded(by: CoverageSets.cropPadding)
            .turned(byDegrees: degrees)
        let detector = try Self.detector()
        let faces = try detector.process(photo.image)
        try #require(faces.count == 1, "\(faces.count) faces in \(file) turned \(degrees)")
        let centre = CGPoint(x: Double(photo.image.width) / 2, y: Double(photo.image.height) / 2)
        #expect(faces[0].frame.contains(centre))
        // Kept by the third look alone: YuNet's score stays what it was.
        #expect(faces[0].detectionScore < detector.options.minDetectionScore, "score \(faces[0].detectionScore)")
        #expect(abs(Self.rollDifference(faces[0].headEulerAngleZ, -degrees)) < 15, "roll \(faces[0].headEulerAngleZ)")
        let (left, right) = (try #require(faces[0].leftEyeOpenProbability), try #require(faces[0].rightEyeOpenProbability))
        #expect((left + right) / 2 < 0.5, "eyes read open: \(left), \(right)")
    }

    @Test("closed-eyed strangers are found and read closed", .needsSharedData)
    func closedEyes() throws {
        let files = try CoverageSets.images(in: TestData.shared.appendingPathComponent("eyes/cew-closed")).prefix(40)
        let detector = try Self.detector()
        var found = 0, closed = 0
        for file in files {
            let photo = try PhotoVariant(image: FaceImage(contentsOfFile: file), faces: []).padded(by: CoverageSets.cropPadding)
            guard let face = try detector.process(photo.image).max(by: { $0.frame.width < $1.frame.width }) else { continue }
            found += 1
            if let left = face.leftEyeOpenProbability, let right = face.rightEyeOpenProbability, (left + right) / 2 < 0.5 {
                closed += 1
            }
        }
        #expect(found == files.count, "\(found) of \(files.count) closed-eyed faces found")
        #expect(closed >= files.count * 8 / 10, "\(closed) of \(found) read closed")
    }
}
