import Foundation
import Testing

@testable import FaceKit

extension GeometryTests {
    @Suite("ContourConstruction")
    struct ContourConstructionTests {
        typealias ContourType = FaceContour.ContourType

        static func contour(_ type: ContourType, of shape: FaceShape = SyntheticFace.frontal()) -> [CGPoint] {
            ContourConstruction.contours(from: shape).first { $0.type == type }!.points
        }

        /// Shortest distance from `point` to the closed polyline through `loop`.
        static func distance(from point: CGPoint, toLoop loop: [CGPoint]) -> Double {
            loop.indices.map { i in
                let a = loop[i]
                let b = loop[(i + 1) % loop.count]
                let ab = b - a
                let t = min(max((point - a).dot(ab) / ab.dot(ab), 0), 1)
                return point.distance(to: a + ab * t)
            }.min()!
        }

        @Test("all 15 contours come in ContourType order with 133 points in all", arguments: [0.0, 30, 180])
        func totalCount(roll: Double) {
            let contours = ContourConstruction.contours(from: SyntheticFace.rolled(degrees: roll))
            #expect(contours.map(\.type) == ContourType.allCases)
            #expect(contours.reduce(0) { $0 + $1.points.count } == 133)
            #expect(contours.allSatisfy { $0.points.allSatisfy { $0.x.isFinite && $0.y.isFinite } })
        }

        @Test("each contour has ML Kit's point count", arguments: ContourType.allCases)
        func pointCount(type: ContourType) {
            #expect(Self.contour(type).count == type.pointCount)
        }

        @Test(
            "open contours start and end on dlib points",
            arguments: [
                (ContourType.leftEyebrowTop, 22, 26), (.rightEyebrowTop, 17, 21), (.upperLipTop, 48, 54),
                (.upperLipBottom, 60, 64), (.lowerLipTop, 64, 60), (.lowerLipBottom, 54, 48), (.noseBridge, 27, 30),
                (.noseBottom, 31, 35),
            ])
        func openContourEnds(type: ContourType, first: Int, last: Int) {
            let shape = SyntheticFace.frontal()
            let points = Self.contour(type)
            #expect(points.first == shape.points[first])
            #expect(points.last == shape.points[last])
        }

        @Test("eyebrow tops are dlib's points and the nose bottom is 31, 33, 35")
        func copiedContours() {
            let shape = SyntheticFace.frontal()
            #expect(Self.contour(.leftEyebrowTop) == shape.leftEyebrow)
            #expect(Self.contour(.rightEyebrowTop) == shape.rightEyebrow)
            #expect(Self.contour(.noseBottom) == [31, 33, 35].map { shape.points[$0] })
        }

        @Test(
            "cheek contours are the cheek landmarks",
            arguments: [
                (ContourType.leftCheek, FaceLandmark.LandmarkType.leftCheek), (.rightCheek, .rightCheek),
            ])
        func cheeksMatchLandmarks(contour: ContourType, landmark: FaceLandmark.LandmarkType) {
            let shape = SyntheticFace.frontal()
            let expected = LandmarkConstruction.landmarks(from: shape, yawDegrees: 0).first { $0.type == landmark }!
                .position
            #expect(Self.contour(contour) == [expected])
        }

        @Test(
            "eye loops pass through all 6 dlib points, corners at 0 and 8",
            arguments: [
                (ContourType.leftEye, FaceShape.leftEyeIndices), (.rightEye, FaceShape.rightEyeIndices),
            ])
        func eyeLoops(type: ContourType, indices: ClosedRange<Int>) {
            let shape = SyntheticFace.frontal()
            let loop = Self.contour(type)
            #expect(loop[0] == shape.points[indices.lowerBound])
            #expect(loop[8] == shape.points[indices.lowerBound + 3])
            for index in indices {
                #expect(Self.distance(from: shape.points[index], toLoop: loop) < 0.5)
            }
            // Upper lid first: the points after the image-left corner are above it.
            #expect(loop[4].y < loop[0].y && loop[12].y > loop[0].y)
        }

        @Test(
            "eyebrow bottoms lie between the eyebrow and the eye",
            arguments: [
                (ContourType.leftEyebrowTop, ContourType.leftEyebrowBottom, FaceShape.leftEyeIndices),
                (.rightEyebrowTop, .rightEyebrowBottom, FaceShape.rightEyeIndices),
            ])
        func eyebrowBottoms(top: ContourType, bottom: ContourType, eye: ClosedRange<Int>) {
            let shape = SyntheticFace.frontal()
            let eyeTop = eye.map { shape.points[$0].y }.min()!
            for (upper, lower) in zip(Self.contour(top), Self.contour(bottom)) {
                #expect(lower.y > upper.y && lower.y < eyeTop)
                #expect(lower.x == upper.x)
            }
        }

        @Test("the face oval starts at the top centre above the eyebrows")
        func ovalStartsAtTop() {
            let shape = SyntheticFace.frontal()
            let oval = Self.contour(.face)
            #expect(isClose(oval[0].x, 320, within: 1e-6))
            let browTop = (shape.rightEyebrow + shape.leftEyebrow).map(\.y).min()!
            #expect(oval[0].y < browTop)
            #expect(oval[0].y == oval.map(\.y).min())
            // Hairline as far above the brows as the brows are above the nose base (about 1 unit).
            let browMean = CGPoint.mean(of: shape.rightEyebrow + shape.leftEyebrow).y
            #expect(isClose(oval[0].y, browMean - (shape.points[33].y - browMean), within: 1e-6))
        }

        @Test("the face oval goes clockwise in the image, at any roll", arguments: [0.0, 45, 180, -90])
        func ovalIsClockwise(roll: Double) {
            let oval = Self.contour(.face, of: SyntheticFace.rolled(degrees: roll))
            let shoelace = oval.indices.reduce(0.0) { sum, i in
                let a = oval[i]
                let b = oval[(i + 1) % oval.count]
                return sum + Double(a.x * b.y - b.x * a.y)
            }
            #expect(shoelace > 0)
            // Clockwise from the top, the next points move toward the subject's left (image right).
            #expect(roll != 0 || oval[1].x > oval[0].x)
        }

        @Test("the face oval follows the observed jaw line", arguments: [0.0, 30])
        func ovalFollowsJaw(roll: Double) {
            let shape = SyntheticFace.rolled(degrees: roll)
            let oval = Self.contour(.face, of: shape)
            for point in shape.jaw {
                #expect(Self.distance(from: point, toLoop: oval) < 1.5)
            }
        }

        @Test("the top of the face oval turns with the face")
        func ovalTopFollowsRoll() {
            let shape = SyntheticFace.rolled(degrees: 90)
            let oval = Self.contour(.face, of: shape)
            // Rolled 90° counter-clockwise, the forehead faces the image's left.
            #expect(oval[0].x == oval.map(\.x).min())
            #expect(isClose(oval[0].y, 240, within: 1e-6))
        }
    }
}
