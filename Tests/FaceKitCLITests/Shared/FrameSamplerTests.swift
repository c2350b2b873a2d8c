import Testing

@testable import FaceKitCLI

@Suite("FrameSampler")
struct FrameSamplerTests {
    /// Frames 0..<20 at 25 fps (40 ms apart) run through a sampler, decoding what it asks for.
    static func analysed(every: Int, startMs: Double?, endMs: Double?, firstTimestampMs: Double = 0) -> [Int] {
        var sampler = FrameSampler(every: every, startMs: startMs, endMs: endMs)
        var analysed: [Int] = []
        var previous: Double?
        for index in 0..<20 {
            let timestamp = firstTimestampMs + Double(index) * 40
            let decode = sampler.shouldDecode(
                index: index, expectedTimestampMs: previous.map { $0 + 40 } ?? 0, frameDurationMs: 40)
            previous = timestamp
            switch sampler.decision(index: index, timestampMs: timestamp, decoded: decode) {
            case .analyse: analysed.append(index)
            case .skip: continue
            case .stop: return analysed
            }
        }
        return analysed
    }

    @Test(
        "analyses every nth frame from the first at or after --start, up to --end",
        arguments: [
            (1, nil, nil, Array(0..<20)),
            (5, nil, nil, [0, 5, 10, 15]),
            (5, 200.0, nil, [5, 10, 15]),
            (4, 210.0, nil, [6, 10, 14, 18]),
            (3, 100.0, 400.0, [3, 6, 9]),
            (1, nil, 120.0, [0, 1, 2]),
        ] as [(Int, Double?, Double?, [Int])])
    func sampling(every: Int, startMs: Double?, endMs: Double?, expected: [Int]) {
        #expect(Self.analysed(every: every, startMs: startMs, endMs: endMs) == expected)
    }

    @Test("without --start a frame stamped before zero is still the first analysed")
    func negativeFirstTimestamp() {
        #expect(Self.analysed(every: 10, startMs: nil, endMs: nil, firstTimestampMs: -33) == [0, 10])
    }
}

@Suite("FrameSampler.Estimate")
struct FrameSamplerEstimateTests {
    @Test(
        "frames to read stop at --end; frames to analyse start at --start and count every nth",
        arguments: [
            // every, start s, end s, declared frames, fps, to read, to analyse
            (10, 60.0, 80.0, 3600, 30.0, 2400, 60),
            (1, nil, nil, 300, 25.0, 300, 300),
            (24, nil, nil, 100, 25.0, 100, 5),
            (1, nil, 10.0, 100, 25.0, 100, 100),
            (5, 1.0, 2.0, 125, 25.0, 50, 5),
            (1, nil, 4.0, 0, 25.0, 100, 100),
            (1, nil, nil, 0, 25.0, nil, nil),
            (1, 2.0, nil, 100, 0.0, 100, nil),
        ] as [(Int, Double?, Double?, Int, Double, Int?, Int?)])
    func estimate(
        every: Int, start: Double?, end: Double?, declared: Int, fps: Double, toRead: Int?, toAnalyse: Int?
    ) {
        let sampler = FrameSampler(every: every, startMs: start.map { $0 * 1000 }, endMs: end.map { $0 * 1000 })
        #expect(
            sampler.estimate(declaredFrames: declared, framesPerSecond: fps)
                == FrameSampler.Estimate(framesToRead: toRead, framesToAnalyse: toAnalyse))
    }
}
