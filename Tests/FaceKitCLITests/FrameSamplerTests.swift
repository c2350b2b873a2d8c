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
