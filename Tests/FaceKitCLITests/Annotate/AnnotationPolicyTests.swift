import Foundation
import Testing

@testable import FaceKit
@testable import FaceKitCLI

/// The drawing policy of `facekit annotate`: pose axes, label places, marks and sizes.
@Suite("annotation policy")
struct AnnotationPolicyTests {
    @Test(
        "the line for a copy counts the faces drawn, and the frames of a video",
        arguments: [
            (AnnotationCount(frames: 125, faces: 230), "out/clip.mp4: 125 frames, 230 faces drawn"),
            (AnnotationCount(frames: 1, faces: 1), "out/clip.mp4: 1 frame, 1 face drawn"),
            (AnnotationCount(frames: nil, faces: 0), "out/clip.mp4: 0 faces drawn"),
        ])
    func countLine(count: AnnotationCount, line: String) {
        #expect(count.line(for: "out/clip.mp4") == line)
    }

    @Test(
        "pose axes rebuilt from Euler angles give the same angles back",
        arguments: [(0.0, 0.0, 0.0), (-22.3, 4.95, -2.61), (30, -45, 10), (-10, 60, -35), (5, -170, 20)])
    func poseAxesRoundTrip(pitch: Double, yaw: Double, roll: Double) {
        let axes = HeadPoseAxes(pitch: pitch, yaw: yaw, roll: roll)
        let angles = HeadEulerAngles.from(rotation: axes.rotation)
        #expect(abs(angles.x - pitch) < 1e-6 && abs(angles.y - yaw) < 1e-6 && abs(angles.z - roll) < 1e-6, "\(angles)")
        let dot = { (a: SIMD3<Double>, b: SIMD3<Double>) in (a * b).sum() }
        #expect(abs(dot(axes.right, axes.up)) < 1e-9 && abs(dot(axes.up, axes.forward)) < 1e-9)
        #expect(abs(dot(axes.right, axes.right) - 1) < 1e-9)
    }

    @Test("a face turned to the image's right points its forward axis right; one turned up points it up")
    func poseAxesDirections() {
        #expect(HeadPoseAxes(pitch: 0, yaw: 30, roll: 0).forward.x > 0.4)
        #expect(HeadPoseAxes(pitch: 30, yaw: 0, roll: 0).forward.y < -0.4)
        let rolled = HeadPoseAxes(pitch: 0, yaw: 0, roll: 30)
        #expect(rolled.right.y < -0.4, "counter-clockwise roll lifts the subject's left side (image right)")
    }

    static let layerArguments: [(String, Set<AnnotationLayer>)] = [
        ("boxes", [.boxes]), ("boxes,pose,ids", [.boxes, .pose, .ids]), ("all", Set(AnnotationLayer.allCases)),
        ("labels, landmarks", [.labels, .landmarks]),
    ]

    @Test("--draw takes a comma-separated list or all, and nothing else", arguments: layerArguments)
    func layers(argument: String, expected: Set<AnnotationLayer>) {
        #expect(AnnotationLayers(argument: argument)?.layers == expected)
    }

    @Test("unknown marks and empty items are refused", arguments: ["hats", "boxes,", "", "Boxes"])
    func badLayers(argument: String) {
        #expect(AnnotationLayers(argument: argument) == nil)
    }

    @Test("a label goes below its face, moves above at the image's bottom, and keeps off other labels")
    func labelPlacement() {
        let image = CGSize(width: 400, height: 300)
        let face = CGRect(x: 100, y: 100, width: 80, height: 80)
        var layout = LabelPlacement(image: image, faces: [face])
        let first = layout.place(CGSize(width: 120, height: 30), near: face, preferAbove: false)
        #expect(first == CGRect(x: 100, y: 180, width: 120, height: 30))
        let second = layout.place(CGSize(width: 120, height: 30), near: face, preferAbove: false)
        #expect(second.intersection(first).isEmpty && second.intersection(face).isEmpty, "\(second)")
        #expect(second.maxY == 100, "then above: \(second)")

        // Rounding to whole pixels does not count as covering the face.
        let fractional = CGRect(x: 100.4, y: 100.4, width: 80.3, height: 80.3)
        var rounded = LabelPlacement(image: image, faces: [fractional])
        #expect(rounded.place(CGSize(width: 40, height: 20), near: fractional, preferAbove: true).minY == 80)

        let low = CGRect(x: 350, y: 250, width: 50, height: 50)
        var corner = LabelPlacement(image: image, faces: [low])
        let moved = corner.place(CGSize(width: 120, height: 30), near: low, preferAbove: false)
        #expect(moved == CGRect(x: 280, y: 220, width: 120, height: 30), "above and inside the image: \(moved)")
    }

    @Test("labels show the probabilities as percentages, the subject's right eye first, - when absent")
    func labelText() {
        var face = Face(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        face.absenceReasons = [.smiling: .notRequested, .leftEyeOpen: .notRequested, .rightEyeOpen: .notRequested]
        #expect(FaceAnnotation.labelLines(for: face).isEmpty)
        face.smilingProbability = 0.934
        face.rightEyeOpenProbability = 0.98
        face.absenceReasons = [.leftEyeOpen: .eyeNotVisible]
        #expect(FaceAnnotation.labelLines(for: face) == ["smile 93%", "eyes R 98% L -"])
    }

    @Test("lines grow with the image but stay thin on small faces; labels stay readable")
    func style() {
        let video = AnnotationStyle(imageWidth: 640, imageHeight: 360)
        #expect(video.lineWidth(forFaceWidth: 92) == 2)
        let photo = AnnotationStyle(imageWidth: 4000, imageHeight: 3000)
        #expect(photo.lineWidth(forFaceWidth: 1000) > 16)
        #expect(photo.lineWidth(forFaceWidth: 60) == 4)
        #expect(photo.textHeight(forFaceWidth: 30) == 9)
        #expect(video.textHeight(forFaceWidth: 200) == 10)
        #expect(AnnotationStyle.color(forFace: 3) != AnnotationStyle.color(forFace: 4))
        #expect(AnnotationStyle.color(forFace: 8) == AnnotationStyle.color(forFace: 0))
    }
}
