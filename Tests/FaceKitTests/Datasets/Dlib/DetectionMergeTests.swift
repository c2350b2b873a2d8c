import Foundation
import Testing
import FaceKit
@testable import FaceKitDatasets

@Suite("DetectionMerge")
struct DetectionMergeTests {
    static func detection(_ x: Double, _ y: Double, _ size: Double, score: Double = 1) -> NativeDlibDetector.Detection {
        NativeDlibDetector.Detection(box: CGRect(x: x, y: y, width: size, height: size), score: score)
    }

    @Test("a face both detectors found takes the HOG box and the CNN score")
    func both() {
        let merged = DetectionMerge.merged(cnn: [Self.detection(100, 100, 100, score: 7)], hog: [Self.detection(110, 95, 110)])
        #expect(merged.count == 1)
        #expect(merged[0].box == CGRect(x: 110, y: 95, width: 110, height: 110))
        #expect(merged[0].score == 7)
    }

    @Test("a face only the CNN found takes its mapped box")
    func cnnOnly() {
        let merged = DetectionMerge.merged(cnn: [Self.detection(100, 100, 100)], hog: [Self.detection(600, 100, 100)])
        #expect(merged.count == 2)
        #expect(merged[0].box == CNNBoxMapping.hogStyle(CGRect(x: 100, y: 100, width: 100, height: 100)))
        #expect(merged[1].box.minX == 600, "the HOG-only face is kept")
    }

    @Test("one HOG box is never given to two CNN faces")
    func oneToOne() {
        let merged = DetectionMerge.merged(
            cnn: [Self.detection(100, 100, 100), Self.detection(105, 100, 100)], hog: [Self.detection(100, 100, 105)])
        #expect(merged.count == 2)
        #expect(merged.filter { $0.box == CGRect(x: 100, y: 100, width: 105, height: 105) }.count == 1)
    }
}
