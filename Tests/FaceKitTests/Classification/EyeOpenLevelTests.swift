import Foundation
import Testing
@testable import FaceKit

@Suite("EyeOpenLevel")
struct EyeOpenLevelTests {
    /// Ratios of an eye seen every 33 ms starting at `start`.
    static func level(_ ratios: [Double], start: Double = 0) -> EyeOpenLevel {
        var level = EyeOpenLevel()
        for (index, ratio) in ratios.enumerated() { level.record(ratio, timestampMs: start + 33 * Double(index)) }
        return level
    }

    @Test("the level is unknown until ten ratios have been seen")
    func needsSamples() {
        #expect(Self.level(Array(repeating: 0.3, count: 9)).openLevel == nil)
        #expect(Self.level(Array(repeating: 0.3, count: 10)).openLevel == 0.3)
    }

    @Test("blinks among open frames leave the level at the open ratio")
    func robustToBlinks() {
        let ratios = (0..<100).map { $0 % 10 == 0 ? 0.12 : 0.28 }
        #expect(Self.level(ratios).openLevel == 0.28)
    }

    @Test("ratios older than the window no longer count")
    func window() {
        var level = Self.level(Array(repeating: 0.4, count: 50))
        let later = EyeOpenLevel.window + 5_000
        for index in 0..<10 { level.record(0.25, timestampMs: later + 33 * Double(index)) }
        #expect(level.openLevel == 0.25)
    }

    @Test("a closed eye reads well below zero and the same ratio as the level reads zero")
    func relativeOpenness() throws {
        let level = Self.level(Array(repeating: 0.3, count: 20))
        #expect(try #require(level.relativeOpenness(0.3)) == 0)
        #expect(try #require(level.relativeOpenness(0.18)) < -0.4)
        #expect(EyeOpenLevel().relativeOpenness(0.18) == nil)
    }

    @Test("observing judges a ratio against the level before it, then records it")
    func observe() {
        var level = Self.level(Array(repeating: 0.3, count: 9))
        #expect(level.observe(0.3, timestampMs: 1_000) == nil, "the ninth sample's level is still unknown")
        #expect(level.observe(0.15, timestampMs: 1_033).map { abs($0 - log(0.5)) < 1e-12 } == true)
    }
}
