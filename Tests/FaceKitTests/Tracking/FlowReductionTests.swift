import Testing
import FaceKitTestSupport

@testable import FaceKit

@Suite("FaceFollower's flow reduction")
struct FlowReductionTests {
    @Test(
        "follows each frame as small as the smallest wanted face allows (24 px), 160 to 960 px wide",
        arguments: [
            (640, 0.1, 2),     // smallest face 51 px: 26 px at half size
            (640, 0.05, 1),    // 26 px: no room to reduce
            (1280, 0.1, 4),    // 102 px: 26 px at a quarter
            (1920, 0.1, 4),    // 154 px: 38 px at a quarter, 19 at an eighth
            (3840, 0.01, 4),   // 31 px: reduced anyway to 960 px wide
            (320, 0.1, 1),     // 26 px
            (640, 1.0, 4),     // one face filling the frame: kept 160 px wide
        ] as [(Int, Double, Int)])
    func reduction(width: Int, minFaceSize: Double, expected: Int) {
        #expect(FaceFollower.reduction(frameWidth: width, options: .minFaceSize(minFaceSize)) == expected)
    }
}
