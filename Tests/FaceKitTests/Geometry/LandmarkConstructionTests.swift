import Foundation
import Testing

@testable import FaceKit

extension GeometryTests {
    @Suite("LandmarkConstruction")
    struct LandmarkConstructionTests {
        typealias LandmarkType = FaceLandmark.LandmarkType

        static func position(_ type: LandmarkType, yaw: Double = 0, in shape: FaceShape = SyntheticFace.frontal())
            -> CGPoint?
        {
            LandmarkConstruction.landmarks(from: shape, yawDegrees: yaw).first { $0.type == type }?.position
        }

        @Test("a frontal face gets all 10 landmarks, in LandmarkType order")
        func allTenWhenFrontal() {
            let types = LandmarkConstruction.landmarks(from: SyntheticFace.frontal(), yawDegrees: 0).map(\.type)
            #expect(types == LandmarkType.allCases)
        }

        @Test(
            "landmarks that are dlib points or their averages sit exactly there",
            arguments: [
                (LandmarkType.leftEye, [42, 43, 44, 45, 46, 47]), (.rightEye, [36, 37, 38, 39, 40, 41]),
                (.noseBase, [33]), (.mouthLeft, [54]), (.mouthRight, [48]), (.mouthBottom, [57]),
                (.leftCheek, [54, 45]), (.rightCheek, [48, 36]),
            ])
        func observedPositions(type: LandmarkType, indices: [Int]) {
            let shape = SyntheticFace.frontal()
            let expected = CGPoint.mean(of: indices.map { shape.points[$0] })
            #expect(isClose(Self.position(type)!, expected))
        }

        @Test(
            "the subject's left is on the image's right in a frontal face",
            arguments: [
                (LandmarkType.leftEye, LandmarkType.rightEye), (.leftEar, .rightEar), (.leftCheek, .rightCheek),
                (.mouthLeft, .mouthRight),
            ])
        func leftIsImageRight(left: LandmarkType, right: LandmarkType) {
            #expect(Self.position(left)!.x > Self.position(right)!.x)
        }

        @Test("ears are estimated just outside the ends of the jaw line")
        func earsOutsideJaw() {
            let shape = SyntheticFace.frontal()
            let leftEar = Self.position(.leftEar)!
            let rightEar = Self.position(.rightEar)!
            #expect(leftEar.x > shape.points[16].x)
            #expect(rightEar.x < shape.points[0].x)
            // Between eye level and the mouth, and no further out than a jaw step.
            #expect(leftEar.y > shape.points[16].y && leftEar.y < shape.points[48].y)
            #expect(leftEar.distance(to: shape.points[16]) < shape.points[16].distance(to: shape.points[15]))
        }

        @Test("ears follow the face when it rolls")
        func earsFollowRoll() {
            let shape = SyntheticFace.rolled(degrees: 90)
            let leftEar = Self.position(.leftEar, in: shape)!
            // Rolled 90° counter-clockwise, the subject's left side is at the top of the image.
            #expect(leftEar.y < shape.points[16].y)
        }

        /// Yaw > 0 turns the face toward the image's right, i.e. the subject turns to their own left,
        /// so their left ear goes behind the head.
        @Test(
            "the ear on the side turned away is left out",
            arguments: [
                (0.0, true, true), (25, true, true), (30, true, true), (31, false, true), (60, false, true),
                (-25, true, true), (-30, true, true), (-31, true, false), (-75, true, false),
            ])
        func earOmittedByYaw(yaw: Double, leftEarShown: Bool, rightEarShown: Bool) {
            #expect((Self.position(.leftEar, yaw: yaw) != nil) == leftEarShown)
            #expect((Self.position(.rightEar, yaw: yaw) != nil) == rightEarShown)
            #expect(Self.position(.leftEye, yaw: yaw) != nil)
        }
    }
}
