import Foundation
import Testing
@testable import FaceKit

@Suite("FaceClassifier")
struct FaceClassifierTests {
    typealias Synthetic = GeometryTests.SyntheticFace

    /// A plain grey picture for the synthetic shapes: these tests are about which
    /// probabilities are given, not their values.
    static let canvas: FaceImage = {
        let pixels = [UInt8](repeating: 128, count: 400 * 400)
        return try! pixels.withUnsafeBytes { try FaceImage(pixels: $0, width: 400, height: 400, bytesPerRow: 400, format: .gray8) }
    }()

    /// The shipped eye-state and smile networks (bundled with the library, so always there).
    static let eyeState = try! EyeStateModel(modelPath: ModelLocator().path(for: .eyeState))
    static let smile = try! SmileModel(modelPath: ModelLocator().path(for: .smile))

    static func classified(_ shape: FaceShape, yaw: Double = 0) -> Face {
        var face = Face(frame: CGRect(x: 0, y: 0, width: 200, height: 200), headEulerAngleY: yaw)
        try! FaceClassifier.classify(&face, shape: shape, image: canvas, eyeState: eyeState, smile: smile)
        return face
    }

    @Test("a frontal face of fair size gets all three probabilities")
    func present() {
        let face = Self.classified(Synthetic.frontal())
        for kind in Face.Probability.allCases {
            let value = face.probability(kind)
            #expect(value != nil && value! >= 0 && value! <= 1)
            #expect(face.absenceReason(kind) == nil)
        }
    }

    @Test("a face too small to judge gets none, and says so")
    func tooSmall() {
        let tiny = FaceShape(points: Synthetic.frontal().points.map { CGPoint(x: $0.x / 20, y: $0.y / 20) })
        let face = Self.classified(tiny)
        for kind in Face.Probability.allCases {
            #expect(face.probability(kind) == nil)
            #expect(face.absenceReason(kind) == .faceTooSmall)
        }
    }

    @Test("eyes 16-24 px apart get all three probabilities, the eyes' made less sure than the network")
    func smallEyes() throws {
        let frontal = Synthetic.frontal()
        let scale = 20 / frontal.points[36].distance(to: frontal.points[45])
        let small = FaceShape(points: frontal.points.map { CGPoint(x: $0.x * scale, y: $0.y * scale) })
        let face = Self.classified(small)
        for kind in Face.Probability.allCases {
            #expect(face.probability(kind) != nil && face.absenceReason(kind) == nil, "\(kind): \(face.absenceReason(kind) as Any)")
        }
        let patch = try #require(try EyeStateModel.patch(of: .left, shape: small, in: Self.canvas))
        let network = try Self.eyeState.openProbabilities([patch])[0]
        #expect(face.leftEyeOpenProbability == SmallEyeCorrection.fitted.corrected(network, interOcularDistance: 20))
    }

    @Test("implausible landmarks are refused")
    func implausible() {
        let face = Self.classified(Synthetic.mirrored())
        #expect(face.smilingProbability == nil)
        #expect(face.absenceReason(.smiling) == .landmarksImplausible)
    }

    @Test("the eye on the side turned away is not judged", arguments: [(60.0, Face.Probability.leftEyeOpen), (-60.0, .rightEyeOpen)])
    func turnedAway(yaw: Double, hidden: Face.Probability) {
        let face = Self.classified(Synthetic.frontal(), yaw: yaw)
        #expect(face.absenceReason(hidden) == .eyeNotVisible)
        #expect(face.smilingProbability != nil)
        let visible: Face.Probability = hidden == .leftEyeOpen ? .rightEyeOpen : .leftEyeOpen
        #expect(face.probability(visible) != nil)
    }
}
