import Foundation
import Testing
import FaceKitTestSupport

@testable import FaceKit

@Suite("SearchPlan")
struct SearchPlanTests {
    static let fast = SearchPlan(smallestFace: 24, mirrored: false)

    @Test("a 1000 px photo at the default minFaceSize is one pass, resized so an 80 px face box is 24 px")
    func onePass() {
        let passes = Self.fast.passes(imageWidth: 1000, imageHeight: 667, options: .minFaceSize(0.1))
        #expect(passes == [SearchPass(region: CGRect(x: 0, y: 0, width: 1000, height: 667), scale: 0.3, isMirrored: false)])
    }

    @Test("a small photo is enlarged, at most 4 times")
    func enlarged() {
        let scale = Self.fast.passes(imageWidth: 128, imageHeight: 96, options: .minFaceSize(0.1))[0].scale
        #expect(abs(scale - 24 / (0.1 * 128 * 0.8)) < 1e-9)
        #expect(Self.fast.passes(imageWidth: 128, imageHeight: 96, options: .minFaceSize(0.01))[0].scale == SearchPlan.maximumUpscale)
    }

    @Test("a fine search of a large photo is tiled, every tile within bounds, and ends in one whole-image pass",
          arguments: [(6000, 4000, 0.01), (4000, 6000, 0.02), (20000, 300, 0.05), (3000, 2000, 0.1)])
    func tiles(width: Int, height: Int, minFaceSize: Double) {
        let passes = Self.fast.passes(imageWidth: width, imageHeight: height, options: .minFaceSize(minFaceSize))
        let image = CGRect(x: 0, y: 0, width: width, height: height)
        for pass in passes {
            #expect(image.contains(pass.region), "\(pass.region) inside the image")
            #expect(max(pass.region.width, pass.region.height) * pass.scale <= SearchPlan.tileSide + 1e-6)
        }
        let last = passes.last!
        #expect(last.region == image)
        #expect(min(Double(width), Double(height)) * last.scale <= SearchPlan.largestFace + 1e-6)
        // Every level's tiles cover the image, overlapping by more than the faces it must find.
        for scale in Set(passes.map(\.scale)) {
            let level = passes.filter { $0.scale == scale }
            #expect(level.map { $0.region.width * $0.region.height }.reduce(0, +) >= image.width * image.height - 1e-6)
            let xs = Set(level.map(\.region.minX)).sorted()
            for (a, b) in zip(xs, xs.dropFirst()) {
                let tileWidth = level.first { $0.region.minX == a }!.region.width
                #expect((a + tileWidth - b) * scale >= 4 * Self.fast.smallestFace, "tiles overlap enough")
            }
        }
        #expect(Double(passes.count) < 200, "\(passes.count) passes")
    }

    @Test("no minFaceSize makes the plan trap or run away", arguments: [1e-300, Double.leastNonzeroMagnitude, 1e-17, 1.0])
    func extremeMinFaceSize(minFaceSize: Double) {
        let passes = Self.fast.passes(imageWidth: 4000, imageHeight: 3000, options: .minFaceSize(minFaceSize))
        #expect(!passes.isEmpty && passes.allSatisfy { $0.scale.isFinite && $0.scale > 0 })
        let finest = passes.map(\.scale).max()!
        #expect(4000 * 3000 * finest * finest <= SearchPlan.maximumSearchPixels * 1.0001)
    }

    @Test("a 1x1 image is searched once, enlarged")
    func tinyImage() {
        let passes = Self.fast.passes(imageWidth: 1, imageHeight: 1, options: .minFaceSize(0.1))
        #expect(passes.count == 1 && passes[0].scale == SearchPlan.maximumUpscale)
    }
}

@Suite("NonMaximumSuppression")
struct NonMaximumSuppressionTests {
    @Test("keeps the best of overlapping boxes and every box that overlaps no better one")
    func keeps() {
        let boxes = [
            CGRect(x: 0, y: 0, width: 10, height: 10), CGRect(x: 1, y: 0, width: 10, height: 10),
            CGRect(x: 50, y: 0, width: 10, height: 10), CGRect(x: 52, y: 1, width: 10, height: 10),
        ]
        #expect(NonMaximumSuppression.kept(scores: [0.8, 0.9, 0.5, 0.7], boxes: boxes, maximumOverlap: 0.3) == [1, 3])
        #expect(NonMaximumSuppression.kept(scores: [0.8, 0.9, 0.5, 0.7], boxes: boxes, maximumOverlap: 1) == [1, 0, 3, 2])
    }
}

@Suite("MirrorFusion")
struct MirrorFusionTests {
    static func face(_ x: Double, _ score: Double) -> NativeYuNet.Face {
        NativeYuNet.Face(
            box: CGRect(x: x, y: 0, width: 100, height: 120),
            keypoints: (0..<5).map { CGPoint(x: x + Double($0) * 10, y: 50) }, score: score)
    }

    @Test("a face found both ways round keeps the mean score and a score-weighted box")
    func both() {
        let fused = MirrorFusion.fused([Self.face(0, 0.9)], [Self.face(10, 0.6)], minimumScore: 0.5)
        try? #require(fused.count == 1)
        #expect(abs(fused[0].score - 0.75) < 1e-12)
        #expect(abs(fused[0].box.minX - 4) < 1e-9, "0.9 / 1.5 of the way to the first box")
        #expect(abs(fused[0].keypoints[1].x - 14) < 1e-9)
    }

    @Test("a detection found one way round only keeps half its score, so a threshold over 0.5 drops it")
    func oneWay() {
        #expect(MirrorFusion.fused([Self.face(0, 0.95)], [Self.face(500, 0.9)], minimumScore: 0.6).isEmpty)
        #expect(MirrorFusion.fused([Self.face(0, 0.95)], [], minimumScore: 0.4).map(\.score) == [0.475])
        #expect(MirrorFusion.passThreshold(for: 0.85) == 0.7 && MirrorFusion.passThreshold(for: 0.3) == 0.1)
    }
}
