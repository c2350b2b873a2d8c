import Foundation
import Testing
import FaceKitDatasets
import FaceKitTestSupport

@testable import FaceKit

/// ``Face/points68``: dlib's 68 points, which every landmark and angle is built from, given as
/// they are; checked against the points people placed on the Helen photos.
@Suite("the 68 points", .needsModels, .needsSharedData)
struct Points68Tests {
    static let helen = TestData.shared("landmarks/helen")

    /// The first Helen photos, in name order.
    static func photos(_ count: Int) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: helen).filter { $0.hasSuffix(".jpg") }.sorted().prefix(count)
            .map { helen + "/" + $0 }
    }

    @Test("every face has 68 points in iBUG order, within a tenth of the eye-corner distance of people's, on average")
    func nearPeoplesPoints() throws {
        let detector = try FaceDetector(models: ModelLocator(directory: TestData.models))
        var errors: [Double] = []
        for photo in try Self.photos(12) {
            let truth = try LandmarkAnnotation.read(photo.replacingOccurrences(of: ".jpg", with: ".pts"))
            let centre = CGPoint(
                x: truth.map(\.x).reduce(0, +) / Double(truth.count), y: truth.map(\.y).reduce(0, +) / Double(truth.count))
            let faces = try detector.process(contentsOfFile: photo)
            guard let face = faces.first(where: { $0.frame.contains(centre) }) else {
                Issue.record("\(photo): the annotated face was not found")
                continue
            }
            #expect(face.points68.count == 68)
            let scale = Double(hypot(truth[36].x - truth[45].x, truth[36].y - truth[45].y))
            let found = zip(face.points68, truth).compactMap { point, truth in
                point.map { Double(hypot($0.x - truth.x, $0.y - truth.y)) / scale }
            }
            #expect(found.count >= 60, "\(photo): \(found.count) of 68 points in the picture")
            errors.append(found.reduce(0, +) / Double(found.count))
        }
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(errors.count >= 10)
        #expect(mean < 0.1, "mean error \(mean) of the eye-corner distance")
    }

    @Test("the landmarks are built from the points: the left eye lies among points 42-47")
    func landmarksFromPoints() throws {
        var options = FaceDetectorOptions()
        options.landmarkMode = .all
        let detector = try FaceDetector(options: options, models: ModelLocator(directory: TestData.models))
        let face = try #require(try detector.process(contentsOfFile: TestData.fixture("astronaut.png")).first)
        let eye = face.points68[42...47].compactMap { $0 }
        #expect(eye.count == 6)
        let leftEye = try #require(face.landmark(ofType: .leftEye)).position
        #expect(leftEye.x >= eye.map(\.x).min()! && leftEye.x <= eye.map(\.x).max()!)
        #expect(leftEye.y >= eye.map(\.y).min()! - 3 && leftEye.y <= eye.map(\.y).max()! + 3)
    }
}
