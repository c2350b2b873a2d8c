import Foundation
import Testing

@testable import FaceKit

extension GeometryTests {
    @Suite("MeanFace")
    struct MeanFaceTests {
        static func point(_ index: Int) -> MeanFace.Point { MeanFace.points.first { $0.dlibIndex == index }! }

        @Test("has the 14 dlib points used for pose, in order")
        func indices() {
            #expect(MeanFace.dlibIndices == [17, 21, 22, 26, 36, 39, 42, 45, 31, 35, 48, 54, 57, 8])
        }

        @Test("is converted from the published frame by negating every axis")
        func conversion() {
            for (published, converted) in zip(MeanFace.published, MeanFace.points) {
                #expect(
                    converted
                        == MeanFace.Point(
                            dlibIndex: published.dlibIndex, x: -published.x, y: -published.y, z: -published.z)
                )
            }
        }

        @Test("is left-right symmetric", arguments: [(17, 26), (21, 22), (36, 45), (39, 42), (31, 35), (48, 54)])
        func symmetric(right: Int, left: Int) {
            let r = Self.point(right)
            let l = Self.point(left)
            #expect(r.x == -l.x && r.y == l.y && r.z == l.z)
            // The subject's left is on the image's right, as for a frontal face.
            #expect(l.x > 0)
        }

        @Test("seen from the front, brows are above eyes, eyes above nose, nose above mouth, mouth above chin")
        func verticalOrder() {
            let heights = [21, 39, 31, 48, 57, 8].map { Self.point($0).y }
            #expect(heights == heights.sorted())  // y grows downward
        }

        @Test("the nose is nearer the camera than the eye corners and the chin")
        func depthOrder() {
            #expect(Self.point(31).z < Self.point(36).z)
            #expect(Self.point(31).z < Self.point(8).z)
        }

        @Test("projected frontally, the mean face is a plausible face layout")
        func frontalProjection() {
            // Orthographic view of the 14 points: left eye outer corner to the right of the right one.
            #expect(Self.point(45).x > Self.point(36).x)
            #expect(Self.point(54).x > Self.point(48).x)
            let eyeY = (Self.point(36).y + Self.point(45).y) / 2
            let mouthY = (Self.point(48).y + Self.point(54).y) / 2
            #expect(eyeY < mouthY)
        }
    }
}
