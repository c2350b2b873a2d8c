import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKit

@Suite("DiagonalView")
struct DiagonalViewTests {
    /// The view's pixel for an image point: the image turned 45 degrees clockwise about its
    /// centre, resized, centred in the view (the inverse of `imagePoint`, written out).
    static func viewPoint(_ point: CGPoint, image: (width: Double, height: Double), view: DiagonalView) -> CGPoint {
        let (dx, dy) = (Double(point.x) - image.width / 2, Double(point.y) - image.height / 2)
        let c = (0.5 as Double).squareRoot() * view.scale
        return CGPoint(x: Double(view.width) / 2 + c * (dx - dy), y: Double(view.height) / 2 + c * (dx + dy))
    }

    @Test("the view holds the whole image turned 45 degrees clockwise, and maps back onto it",
          arguments: [(1000, 600, 0.5), (480, 640, 1.0), (3000, 2000, 0.12)])
    func geometry(width: Int, height: Int, scale: Double) {
        let view = DiagonalView(imageWidth: width, imageHeight: height, scale: scale)
        let size = (width: Double(width), height: Double(height))
        let frame = CGRect(x: 0, y: 0, width: view.width, height: view.height).insetBy(dx: -0.5, dy: -0.5)
        for corner in [(0.0, 0.0), (size.width, 0), (0, size.height), (size.width, size.height), (size.width / 3, size.height / 5)] {
            let point = CGPoint(x: corner.0, y: corner.1)
            let seen = Self.viewPoint(point, image: size, view: view)
            #expect(frame.contains(seen), "\(point) at \(seen), outside the \(view.width) px view")
            #expect(view.imagePoint(seen).distance(to: point) < 1e-6)
        }
        // Clockwise on screen (y down): the image's right goes down-right in the view.
        let right = Self.viewPoint(CGPoint(x: size.width, y: size.height / 2), image: size, view: view)
        #expect(right.x > Double(view.width) / 2 && right.y > Double(view.height) / 2)
    }

    @Test("a face found in the view comes back about the same centre, its own size, its keypoints exactly")
    func imageFace() {
        let view = DiagonalView(imageWidth: 800, imageHeight: 600, scale: 0.5)
        let keypoints = [CGPoint(x: 100, y: 90), CGPoint(x: 120, y: 90), CGPoint(x: 110, y: 100), CGPoint(x: 102, y: 110), CGPoint(x: 118, y: 110)]
        let face = NativeYuNet.Face(box: CGRect(x: 90, y: 80, width: 40, height: 44), keypoints: keypoints, score: 0.9, quarterTurns: 1)
        let mapped = view.imageFace(face)
        #expect(mapped.viewDegrees == 45 && mapped.quarterTurns == 1 && mapped.searchDegrees == 135)
        #expect(abs(mapped.box.width - 80) < 1e-9 && abs(mapped.box.height - 88) < 1e-9)
        let centre = CGPoint(x: mapped.box.midX, y: mapped.box.midY)
        #expect(centre.distance(to: view.imagePoint(CGPoint(x: 110, y: 102))) < 1e-9)
        #expect(zip(mapped.keypoints, keypoints).allSatisfy { $0.distance(to: view.imagePoint($1)) < 1e-9 })
    }

    /// A face whose eyes lie on a line at `roll` degrees (clockwise on screen), as YuNet places them.
    static func face(rolled roll: Double, score: Double = 0.9) -> NativeYuNet.Face {
        let eye = turnedClockwise(CGPoint(x: 20, y: 0), degrees: roll)
        let keypoints = [CGPoint(x: 100, y: 100), CGPoint(x: 100 + eye.x, y: 100 + eye.y)] + Array(repeating: CGPoint(x: 110, y: 120), count: 3)
        return NativeYuNet.Face(box: CGRect(x: 80, y: 80, width: 50, height: 60), keypoints: keypoints, score: score)
    }

    @Test("faces rolled about a diagonal: the turn that brings them upright; none sure: the diagonals beside the best; sure upright ones or none: no turn")
    func diagonalTurns() {
        #expect(YuNetFaceFinder.diagonalTurns(for: []).isEmpty)
        #expect(YuNetFaceFinder.diagonalTurns(for: [Self.face(rolled: 5), Self.face(rolled: -15), Self.face(rolled: 88)]).isEmpty)
        // None sure: either side of the best face's turn (here found a quarter turn clockwise).
        var lying = Self.face(rolled: 0, score: 0.85)
        lying.quarterTurns = 1
        #expect(YuNetFaceFinder.diagonalTurns(for: [Self.face(rolled: 3, score: 0.6), lying]) == [0, 1])
        // Rolled 30 degrees clockwise: turning the image 315 (45 + 3 quarter turns) stands it upright.
        #expect(YuNetFaceFinder.diagonalTurns(for: [Self.face(rolled: 30)]) == [3])
        #expect(YuNetFaceFinder.diagonalTurns(for: [Self.face(rolled: -60)]) == [0])
        #expect(YuNetFaceFinder.diagonalTurns(for: [Self.face(rolled: 140), Self.face(rolled: -130), Self.face(rolled: 35)]) == [1, 2, 3])
    }

    @Test("a diagonal detection keeps the best detection of the other passes that it suppressed; other kept ones keep none")
    func displaced() {
        func face(x: Double, score: Double, diagonal: Bool = false) -> NativeYuNet.Face {
            var face = Self.face(rolled: 0, score: score)
            face.box.origin.x = x
            face.viewDegrees = diagonal ? 45 : 0
            return face
        }
        // Face A: the view's 0.88 over the upright passes' 0.7 and 0.75 (and another view's 0.6);
        // face B, far off: an upright 0.95 over a 0.5; face C: the view's alone.
        let found = [
            face(x: 0, score: 0.7), face(x: 2, score: 0.88, diagonal: true), face(x: 4, score: 0.75),
            face(x: 3, score: 0.6, diagonal: true), face(x: 500, score: 0.95), face(x: 502, score: 0.5),
            face(x: 900, score: 0.9, diagonal: true),
        ]
        let kept = NonMaximumSuppression.kept(
            scores: found.map(\.score), boxes: found.map(\.box), maximumOverlap: YuNetFaceFinder.maximumOverlap)
        #expect(kept == [4, 6, 1])
        let displaced = YuNetFaceFinder.displaced(in: found, kept: kept)
        #expect(displaced == [nil, nil, found[2]])
    }

    @Test("a diagonal face's landmarks start on the same square, whichever pass found it")
    func landmarkStart() throws {
        // The same face as YuNet sees it upright, and as the diagonal view's unturned pass found
        // it in a photo turned 45 degrees counter-clockwise.
        let upright = Self.face(rolled: 0)
        var turned = upright
        let pivot = CGPoint(x: 300, y: 200)
        turned.keypoints = upright.keypoints.map { pivot + turnedClockwise($0 - pivot, degrees: -45) }
        let centre = pivot + turnedClockwise(CGPoint(x: upright.box.midX, y: upright.box.midY) - pivot, degrees: -45)
        turned.box = CGRect(x: centre.x - 25, y: centre.y - 30, width: 50, height: 60)
        turned.viewDegrees = 45
        let seed = YuNetFaceFinder.landmarkStart(of: upright).seedBox
        let start = YuNetFaceFinder.landmarkStart(of: turned)
        let seedCentre = pivot + turnedClockwise(CGPoint(x: seed.midX, y: seed.midY) - pivot, degrees: -45)
        #expect(CGPoint(x: start.seedBox.midX, y: start.seedBox.midY).distance(to: seedCentre) < 1e-6)
        #expect(abs(start.seedBox.width - seed.width) < 1e-6)
        #expect(abs(try #require(start.roll) + .pi / 4) < 1e-9)
    }
}
