import Foundation
import Testing

@testable import FaceKit

extension GeometryTests {
    @Suite("MeanFace")
    struct MeanFaceTests {
        static func point(_ index: Int) -> MeanFace.Point { MeanFace.points[index] }

        @Test("has all 68 dlib points, in order")
        func indices() {
            #expect(MeanFace.dlibIndices == Array(0..<68))
        }

        @Test(
            "is left-right symmetric",
            arguments: [(0, 16), (4, 12), (17, 26), (21, 22), (36, 45), (39, 42), (31, 35), (48, 54), (60, 64)])
        func symmetric(right: Int, left: Int) {
            let r = Self.point(right)
            let l = Self.point(left)
            #expect(abs(r.x + l.x) < 1e-3 && abs(r.y - l.y) < 1e-3 && abs(r.z - l.z) < 1e-3)
            // The subject's left is on the image's right, as for a frontal face.
            #expect(l.x > 0)
        }

        @Test("points on the middle line have x 0", arguments: [8, 27, 30, 33, 51, 57, 62, 66])
        func middle(index: Int) {
            #expect(abs(Self.point(index).x) < 1e-3)
        }

        @Test("seen from the front, brows are above eyes, eyes above nose, nose above mouth, mouth above chin")
        func verticalOrder() {
            let heights = [21, 39, 33, 51, 57, 8].map { Self.point($0).y }
            #expect(heights == heights.sorted())  // y grows downward
        }

        @Test("the nose tip is nearer the camera than the eyes, the mouth corners and the jaw")
        func depthOrder() {
            for index in [36, 39, 48, 0, 8] {
                #expect(Self.point(30).z < Self.point(index).z)
            }
            // The ears' end of the jaw is farther back than the chin.
            #expect(Self.point(0).z > Self.point(8).z)
        }

        @Test("has about the anthropometric face's size: eye corners 10 to 12 units apart")
        func size() {
            let width = Self.point(45).x - Self.point(36).x
            #expect(width > 9 && width < 12)
        }

        @Test("assumes a positive focal length and a small level")
        func camera() {
            #expect(MeanFace.focalLengthInImageWidths > 0)
            #expect(abs(MeanFace.levelPitchDegrees) < 10)
        }

        @Test("levelling by zero leaves a rotation as it is; by an angle, turns it about the face's x axis")
        func levelling() {
            let identity: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
            #expect(MeanFace.levelled(identity, by: 0) == identity)
            let turned = MeanFace.levelled(identity, by: 10)
            let angles = HeadEulerAngles.from(rotation: turned)
            #expect(abs(abs(angles.x) - 10) < 1e-9 && abs(angles.y) < 1e-9 && abs(angles.z) < 1e-9)
        }
    }
}
