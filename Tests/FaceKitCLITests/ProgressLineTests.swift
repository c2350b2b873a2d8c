import Testing

@testable import FaceKitCLI

@Suite("ProgressLine")
struct ProgressLineTests {
    @Test(
        "says frames read, speed and time left when the length is known",
        arguments: [
            (120, 300, 24.0, "a.mp4: frame 120 of ~300, 24 frames/s, about 8 s left"),
            (10, 0, 12.5, "a.mp4: frame 10, 12.5 frames/s"),
            (300, 300, 30.0, "a.mp4: frame 300 of ~300, 30 frames/s"),
        ])
    func text(read: Int, declared: Int, rate: Double, expected: String) {
        #expect(ProgressLine.text(source: "a.mp4", framesRead: read, declaredFrames: declared, framesPerSecond: rate) == expected)
    }

    @Test("writes nothing when disabled")
    func disabled() {
        let output = StringOutput()
        let line = ProgressLine(output: output, enabled: false, source: "a.mp4", declaredFrames: 10)
        line.update(framesRead: 5)
        line.finish()
        #expect(output.text.isEmpty)
    }
}
