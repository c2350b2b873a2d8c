import Testing
@testable import FaceKit

@Suite("FaceDetectorOptions")
struct FaceDetectorOptionsTests {
    @Test("defaults match ML Kit")
    func defaults() throws {
        let options = FaceDetectorOptions()
        #expect(options.performanceMode == .fast)
        #expect(options.landmarkMode == .none)
        #expect(options.contourMode == .none)
        #expect(options.classificationMode == .none)
        #expect(options.minFaceSize == 0.1)
        #expect(options.isTrackingEnabled == false)
        try options.validate()
    }

    @Test("contours with tracking are refused, naming both options")
    func contoursWithTracking() {
        var options = FaceDetectorOptions()
        options.contourMode = .all
        options.isTrackingEnabled = true
        #expect {
            try options.validate()
        } throws: { error in
            guard case .invalidOption(let name, let reason) = error as? FaceKitError else { return false }
            return name == "contourMode" && reason.contains("isTrackingEnabled")
        }
    }

    @Test("minFaceSize outside (0, 1] is refused", arguments: [0, -0.1, 1.0001, .nan, .infinity])
    func badMinFaceSize(value: Double) {
        var options = FaceDetectorOptions()
        options.minFaceSize = value
        #expect(throws: FaceKitError.self) { try options.validate() }
    }

    @Test("minFaceSize inside (0, 1] is accepted", arguments: [0.001, 0.1, 1])
    func goodMinFaceSize(value: Double) throws {
        var options = FaceDetectorOptions()
        options.minFaceSize = value
        try options.validate()
    }
}
