import Testing

@testable import FaceKitArguments
@testable import FaceKitCLI

@Suite("ProgressLine")
struct ProgressLineTests {
    static let known = FrameSampler.Estimate(framesToRead: 300, framesToAnalyse: 300)

    @Test(
        "says how far reading has gone, the analysis speed and the time left",
        arguments: [
            (120, 120, known, 24.0, "a.mp4: frame 120 of ~300, analysing 24 frames/s, about 8 s left"),
            (10, 10, FrameSampler.Estimate(), 12.5, "a.mp4: frame 10, analysing 12.5 frames/s"),
            (300, 300, known, 30.0, "a.mp4: frame 300 of ~300, analysing 30 frames/s"),
            (900, 0, FrameSampler.Estimate(framesToRead: 2400, framesToAnalyse: 60), nil, "a.mp4: frame 900 of ~2400"),
        ] as [(Int, Int, FrameSampler.Estimate, Double?, String)])
    func text(read: Int, analysed: Int, estimate: FrameSampler.Estimate, rate: Double?, expected: String) {
        #expect(
            ProgressLine.text(
                source: "a.mp4", framesRead: read, framesAnalysed: analysed, estimate: estimate,
                analysedPerSecond: rate) == expected)
    }

    @Test("with --every, the time left counts the frames still to analyse, not those still to read")
    func timeLeftWithEvery() {
        // --every 10: 1000 of ~3000 frames read, 100 of ~300 analysed, 10 analysed each second:
        // 200 frames to analyse take 20 s (the 2000 frames to read would have said 200 s).
        let text = ProgressLine.text(
            source: "a.mp4", framesRead: 1000, framesAnalysed: 100,
            estimate: FrameSampler.Estimate(framesToRead: 3000, framesToAnalyse: 300), analysedPerSecond: 10)
        #expect(text == "a.mp4: frame 1000 of ~3000, analysing 10 frames/s, about 20 s left")
    }

    static let longSource = "/videos/2025/holiday/beach/clip.mp4"

    @Test(
        "fits the width it is given: the path shortened from the front, then without the speed, then without the path",
        arguments: [
            (200, "/videos/2025/holiday/beach/clip.mp4: frame 120 of ~300, analysing 24 frames/s, about 8 s left"),
            (80, "...iday/beach/clip.mp4: frame 120 of ~300, analysing 24 frames/s, about 8 s left"),
            (70, ".../clip.mp4: frame 120 of ~300, analysing 24 frames/s, about 8 s left"),
            (60, "...holiday/beach/clip.mp4: frame 120 of ~300, about 8 s left"),
            (50, "...ach/clip.mp4: frame 120 of ~300, about 8 s left"),
            (40, "frame 120 of ~300, about 8 s left"),
        ])
    func fitted(columns: Int, expected: String) {
        let text = ProgressLine.text(
            source: Self.longSource, framesRead: 120, framesAnalysed: 120, estimate: Self.known,
            analysedPerSecond: 24, columns: columns)
        #expect(text == expected)
        #expect(TerminalWidth.columns(of: text) <= columns)
    }

    @Test("every line drawn is narrower than the terminal, and the last is erased")
    func drawnLinesFit() {
        let output = StringOutput()
        let line = ProgressLine(
            output: output, enabled: true, source: Self.longSource, estimate: Self.known, terminalColumns: { 24 },
            redrawInterval: .zero)
        for frame in 1...5 { line.update(framesRead: frame, framesAnalysed: frame) }
        line.finish()
        let drawn = output.text.components(separatedBy: "\r\u{1B}[K").dropFirst()
        #expect(drawn.count == 6, "five lines drawn, then erased: \(output.text)")
        #expect(drawn.last == "")
        for text in drawn { #expect(TerminalWidth.columns(of: text) <= 23, "\(text)") }
        #expect(drawn.first == "frame 1 of ~300", "no speed before two frames were analysed")
    }

    @Test("writes nothing when disabled")
    func disabled() {
        let output = StringOutput()
        let line = ProgressLine(output: output, enabled: false, source: "a.mp4", estimate: Self.known)
        line.update(framesRead: 5, framesAnalysed: 5)
        line.finish()
        #expect(output.text.isEmpty)
    }
}
