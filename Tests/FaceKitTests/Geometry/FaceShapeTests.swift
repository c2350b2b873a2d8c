import Foundation
import Testing

@testable import FaceKit

extension GeometryTests {
    @Suite("FaceShape")
    struct FaceShapeTests {
        @Test(
            "names each part with dlib's point counts",
            arguments: [
                (\FaceShape.jaw, 17), (\.rightEyebrow, 5), (\.leftEyebrow, 5), (\.noseBridge, 4), (\.lowerNose, 5),
                (\.rightEye, 6), (\.leftEye, 6), (\.outerLips, 12), (\.innerLips, 8),
            ] as [(any KeyPath<FaceShape, [CGPoint]> & Sendable, Int)])
        func partCounts(part: any KeyPath<FaceShape, [CGPoint]> & Sendable, count: Int) {
            #expect(SyntheticFace.frontal()[keyPath: part].count == count)
        }

        @Test("parts together cover all 68 points once")
        func partsCoverAllPoints() {
            let ranges = [
                FaceShape.jawIndices, FaceShape.rightEyebrowIndices, FaceShape.leftEyebrowIndices,
                FaceShape.noseBridgeIndices, FaceShape.lowerNoseIndices, FaceShape.rightEyeIndices,
                FaceShape.leftEyeIndices, FaceShape.outerLipIndices, FaceShape.innerLipIndices,
            ]
            #expect(ranges.flatMap { Array($0) } == Array(0..<68))
        }

        @Test("the subject's left eye is on the image's right in a frontal face")
        func leftEyeOnImageRight() {
            let shape = SyntheticFace.frontal()
            #expect(shape.leftEyeCentre.x > shape.rightEyeCentre.x)
            #expect(isClose(shape.eyeAxis!, CGPoint(x: 1, y: 0)))
            #expect(isClose(shape.downAxis!, CGPoint(x: 0, y: 1)))
        }

        @Test("a frontal face is plausible at any roll", arguments: [0.0, 15, 90, 180, -120])
        func plausibleAtAnyRoll(degrees: Double) {
            #expect(SyntheticFace.rolled(degrees: degrees).isPlausible)
        }

        @Test("a mirrored face is implausible")
        func mirroredIsImplausible() {
            #expect(!SyntheticFace.mirrored().isPlausible)
        }

        @Test("non-finite coordinates are implausible")
        func nonFiniteIsImplausible() {
            var shape = SyntheticFace.frontal()
            shape.points[30] = CGPoint(x: Double.nan, y: 10)
            #expect(!shape.isPlausible)
        }

        @Test("coincident eyes are implausible")
        func collapsedIsImplausible() {
            #expect(!FaceShape(points: Array(repeating: CGPoint(x: 5, y: 5), count: 68)).isPlausible)
        }

        @Test("a mouth above the eyes is implausible")
        func mouthAboveEyesIsImplausible() {
            var shape = SyntheticFace.frontal()
            shape.points[57] = CGPoint(x: 320, y: 100)
            #expect(!shape.isPlausible)
        }
    }
}
