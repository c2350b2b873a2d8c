import Testing
import FaceKit

@Suite("BlinkCounter")
struct BlinkCounterTests {
    /// Counts blinks in eye-open probabilities (both eyes alike) seen every `step` ms.
    static func count(_ openness: [Double?], step: Double = 33) -> Int {
        var counter = BlinkCounter()
        for (index, value) in openness.enumerated() {
            counter.record(leftEyeOpen: value, rightEyeOpen: value, timestampMs: step * Double(index))
        }
        return counter.count
    }

    @Test(
        "counts closures seen to start and end",
        arguments: [
            ([0.9, 0.9, 0.1, 0.2, 0.9], 1),
            ([0.9, 0.1, 0.9, 0.1, 0.9], 2),
            ([0.1, 0.1, 0.9, 0.9], 0),  // closed from the start: the closing was not seen
            ([0.9, 0.1, 0.1], 0),  // still closed at the end
            ([0.9, 0.1, nil, 0.1, 0.9], 0),  // the eyes went unjudged in between
            ([0.9, 0.5, 0.49, 0.9], 1),
        ] as [([Double?], Int)])
    func blinks(openness: [Double?], expected: Int) {
        #expect(Self.count(openness) == expected)
    }

    @Test("a closure longer than a second is not a blink")
    func longClosure() {
        let closedFor = Int(BlinkCounter.maximumClosureMs / 33) + 2
        #expect(Self.count([0.9] + Array(repeating: 0.1, count: closedFor) + [0.9]) == 0)
    }

    @Test("frames too far apart do not make a blink")
    func gaps() {
        #expect(Self.count([0.9, 0.1, 0.9], step: BlinkCounter.maximumGapMs + 1) == 0)
        #expect(Self.count([0.9, 0.1, 0.9], step: BlinkCounter.maximumGapMs) == 1)
    }

    @Test("a wink, one eye closed, is not a blink; one judged eye is enough")
    func oneEye() {
        var wink = BlinkCounter()
        var profile = BlinkCounter()
        for (index, value) in [0.9, 0.1, 0.9].enumerated() {
            wink.record(leftEyeOpen: value, rightEyeOpen: 0.9, timestampMs: 33 * Double(index))
            profile.record(leftEyeOpen: value, rightEyeOpen: nil, timestampMs: 33 * Double(index))
        }
        #expect(wink.count == 0)
        #expect(profile.count == 1)
    }
}
