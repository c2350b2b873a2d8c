import Testing
import FaceKitTestSupport
import FaceKit
@testable import FaceKitDatasets

@Suite("DlibSearchScale")
struct DlibSearchScaleTests {
    @Test("a photo whose smallest wanted face is 300 px wide is searched at a reduced size")
    func largeFacesShrink() {
        // 3000 px wide, faces of at least 300 px: the 240 px box must map to the 80 px window.
        let scale = DlibSearchScale.scale(imageWidth: 3000, imageHeight: 2000, options: .minFaceSize(0.1))
        #expect(abs(scale - 80.0 / 240.0) < 1e-9)
    }

    @Test("a small photo is enlarged so a 40 px face fits the detector window")
    func smallFacesGrow() {
        let scale = DlibSearchScale.scale(imageWidth: 400, imageHeight: 300, options: .minFaceSize(0.1))
        #expect(scale * 40 * FaceDetectorOptions.boxWidthPerHeadWidth >= DlibSearchScale.detectorWindow - 1e-9)
    }

    @Test("enlargement is capped by factor and by pixel count")
    func capped() {
        #expect(DlibSearchScale.scale(imageWidth: 100, imageHeight: 100, options: .minFaceSize(0.01)) == DlibSearchScale.maxUpscale)
        let big = DlibSearchScale.scale(imageWidth: 6000, imageHeight: 4000, options: .minFaceSize(0.01))
        #expect(big * big * 6000 * 4000 <= DlibSearchScale.maxSearchPixels + 1)
        #expect(big >= 1)
    }

    @Test("the scale never falls below the shim's minimum")
    func floor() {
        #expect(DlibSearchScale.scale(imageWidth: 100_000, imageHeight: 100, options: .minFaceSize(1)) == DlibSearchScale.minScale)
    }
}
