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

    @Test("isValidMinFaceSize accepts exactly what validate accepts", arguments: [0, -0.1, 1.0001, .nan, .infinity, 0.001, 0.1, 1])
    func validMinFaceSizeAgrees(value: Double) {
        var options = FaceDetectorOptions()
        options.minFaceSize = value
        #expect(FaceDetectorOptions.isValidMinFaceSize(value) == ((try? options.validate()) != nil))
    }

    @Test("the smallest face box is minFaceSize x image width x 0.8, and imageWidth(whereSmallestFaceBoxIs:) inverts it")
    func smallestFaceBox() {
        var options = FaceDetectorOptions()
        #expect(options.minFaceSize == FaceDetectorOptions.defaultMinFaceSize)
        #expect(options.smallestFaceBox(imageWidth: 1000) == 0.1 * 1000 * 0.8)
        #expect(options.imageWidth(whereSmallestFaceBoxIs: 160) == 160 / (0.8 * 0.1))
        options.minFaceSize = 0.05
        #expect(options.smallestFaceBox(imageWidth: 640) == 0.05 * 640 * 0.8)
    }

    @Test("validate names the refused option by its Option raw value")
    func optionNames() {
        var options = FaceDetectorOptions()
        options.minDetectionScore = 2
        #expect {
            try options.validate()
        } throws: { error in
            guard case .invalidOption(let name, _) = error as? FaceKitError else { return false }
            return FaceDetectorOptions.Option(rawValue: name) == .minDetectionScore
        }
    }
}
