import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKit

/// ``TrackJoining``'s final IDs decided as the frames come, against the decision taken at the
/// end of the video (the rule as first written, kept here as the reference).
@Suite("TrackJoining")
struct TrackJoiningTests {
    /// A descriptor along `axis`, nudged along the last one: two are `abs(nudge difference)`
    /// apart on one axis, about 1.4 apart on two.
    static func descriptor(_ axis: Int, _ nudge: Float = 0) -> FaceDescriptor {
        var values = [Float](repeating: 0, count: FaceDescriptor.length)
        values[axis] = 1
        values[FaceDescriptor.length - 1] = nudge
        return FaceDescriptor(values: values)
    }

    /// The rule applied once every track is complete: the reference for the decisions taken early.
    static func referenceIDs(
        spans: [Int: (firstMs: Double, lastMs: Double, descriptors: [FaceDescriptor])], maximumDistance: Double
    ) -> [Int: Int] {
        let order = spans.keys.sorted { (spans[$0]!.firstMs, $0) < (spans[$1]!.firstMs, $1) }
        let means = spans.compactMapValues { $0.descriptors.isEmpty ? nil : FaceDescriptor.mean(of: $0.descriptors) }
        var groups: [(id: Int, members: [Int])] = []
        var joined: [Int: Int] = [:]
        for id in order {
            var best: (group: Int, distance: Double)?
            if let mean = means[id] {
                for (index, group) in groups.enumerated() {
                    let apart = group.members.allSatisfy { spans[$0]!.lastMs < spans[id]!.firstMs || spans[id]!.lastMs < spans[$0]!.firstMs }
                    guard apart else { continue }
                    let farthest = group.members.map { member in means[member].map { mean.distance(to: $0) } ?? .infinity }.max() ?? .infinity
                    if farthest <= maximumDistance, farthest < (best?.distance ?? .infinity) { best = (index, farthest) }
                }
            }
            if let best {
                groups[best.group].members.append(id)
                joined[id] = groups[best.group].id
            } else {
                groups.append((id, [id]))
            }
        }
        var numbers: [Int: Int] = [:]
        for id in order where joined[id] == nil { numbers[id] = numbers.count }
        return Dictionary(uniqueKeysWithValues: order.map { ($0, numbers[joined[$0] ?? $0]!) })
    }

    @Test("joining needs the descriptors to be close for every track of a group, and the tracks never on screen together")
    func joiningRules() {
        var joining = TrackJoining(maximumDistance: 0.5)
        var numbered = TrackJoining(maximumDistance: 0.5, joining: false)
        for journal in [0, 1] {
            func record(_ id: Int, _ timestampMs: Double, _ descriptor: FaceDescriptor? = nil) {
                if journal == 0 { joining.record(id: id, timestampMs: timestampMs, descriptor: descriptor) }
                else { numbered.record(id: id, timestampMs: timestampMs, descriptor: descriptor) }
            }
            record(0, 0, Self.descriptor(0))
            record(0, 1000)
            record(1, 500, Self.descriptor(0, -0.1))  // same look, same time
            record(2, 2000, Self.descriptor(0, 0.3))  // same person later
            record(3, 3000, Self.descriptor(1))       // someone else
            record(4, 4000)                           // no descriptor
        }
        #expect(joining.joinedIDs() == [2: 0])
        // The video's IDs: the joined track takes its group's, and no number is left out.
        #expect(joining.videoIDs() == [0: 0, 1: 1, 2: 0, 3: 2, 4: 3])
        #expect(numbered.joinedIDs() == [:])
        #expect(numbered.videoIDs() == [0: 0, 1: 1, 2: 2, 3: 3, 4: 4])
    }

    @Test("a track no earlier group could take is decided at once; one that may join waits until it and the group's tracks end")
    func decidedWhenKnown() {
        var joining = TrackJoining()
        joining.record(id: 0, timestampMs: 0, descriptor: Self.descriptor(0))
        #expect(joining.decide(atMs: 0, descriptorsPendingSinceMs: nil) == [0: 0])
        // Track 1 appears while 0 is on screen: no group is apart from it, so it is a new person.
        joining.record(id: 0, timestampMs: 40)
        joining.record(id: 1, timestampMs: 40, descriptor: Self.descriptor(1))
        #expect(joining.decide(atMs: 40, descriptorsPendingSinceMs: nil) == [1: 1])
        // Both leave; 2 appears. 0 and 1 may still come back (not retired): 2 waits.
        joining.record(id: 2, timestampMs: 1000, descriptor: Self.descriptor(0, 0.2))
        #expect(joining.decide(atMs: 1000, descriptorsPendingSinceMs: nil) == [:])
        joining.retire(allBut: [2])
        // 0 and 1 have ended, 2 is still on screen and may yet look like someone else: it waits.
        #expect(joining.decide(atMs: 1040, descriptorsPendingSinceMs: nil) == [:])
        joining.record(id: 2, timestampMs: 1080)
        joining.record(id: 3, timestampMs: 1080, descriptor: Self.descriptor(2))
        // 3 appears while 2 is on screen, so it cannot be 0's person, but it may be 1's: it waits
        // for its own end, and for 2's decision (numbers go in order of appearance).
        #expect(joining.decide(atMs: 1080, descriptorsPendingSinceMs: nil) == [:])
        // 2 ends, its last descriptor still computing: nothing yet; then it joins 0's person.
        joining.retire(allBut: [3])
        #expect(joining.decide(atMs: 1120, descriptorsPendingSinceMs: 1080) == [:])
        #expect(joining.decide(atMs: 1120, descriptorsPendingSinceMs: nil) == [2: 0])
        // 3 ends, far from 1: a third person.
        joining.retire(allBut: [])
        #expect(joining.decide(atMs: 1160, descriptorsPendingSinceMs: nil) == [3: 2])
        #expect(joining.videoIDs() == [0: 0, 1: 1, 2: 0, 3: 2])
    }

    @Test("a track still on screen at the horizon is decided from its first descriptors, and that decision stands")
    func horizon() {
        var joining = TrackJoining(decisionHorizonMs: 1000)
        joining.record(id: 0, timestampMs: 0, descriptor: Self.descriptor(0))
        joining.retire(allBut: [])
        _ = joining.decide(atMs: 0, descriptorsPendingSinceMs: nil)
        // Track 1 looks like 0 for its first second, then like someone else.
        for step in 0...50 {
            let time = 2000 + Double(step) * 40
            joining.record(id: 1, timestampMs: time, descriptor: Self.descriptor(0, time <= 3000 ? 0.1 : 5))
            let decided = joining.decide(atMs: time, descriptorsPendingSinceMs: nil)
            if time < 3000 { #expect(decided.isEmpty, "at \(time)") }
            if time == 3000 { #expect(decided == [1: 0]) }
        }
        // The whole track's mean is far from 0's, but the decision taken at the horizon stands.
        #expect(joining.videoIDs() == [0: 0, 1: 0])
        #expect(joining.distance(between: 0, and: 1)! > 0.5)
    }

    @Test("a person is named by their first track's descriptors once that track ends or reaches the horizon; joined tracks keep the name")
    func personDescriptors() {
        var joining = TrackJoining(decisionHorizonMs: 1000)
        // Person 0: track 0, ended at 400 with its last descriptor still computing until 440.
        joining.record(id: 0, timestampMs: 0, descriptor: Self.descriptor(0))
        joining.record(id: 0, timestampMs: 400, descriptor: Self.descriptor(0, 0.2))
        joining.retire(allBut: [])
        _ = joining.decide(atMs: 400, descriptorsPendingSinceMs: 400)
        #expect(joining.decidedIDs == [0: 0])
        #expect(joining.personDescriptors.isEmpty, "decided, but its descriptors are not complete")
        _ = joining.decide(atMs: 440, descriptorsPendingSinceMs: nil)
        #expect(joining.personDescriptors == [0: FaceDescriptor.mean(of: [Self.descriptor(0), Self.descriptor(0, 0.2)])])
        // Person 1: track 1 stays on screen from 500; at its horizon it is named by its first second.
        for step in 0...40 {
            let time = 500 + Double(step) * 40
            joining.record(id: 1, timestampMs: time, descriptor: Self.descriptor(1, time <= 1500 ? 0 : 3))
            _ = joining.decide(atMs: time, descriptorsPendingSinceMs: nil)
            #expect((joining.personDescriptors[1] != nil) == (time >= 1500), "at \(time)")
        }
        #expect(joining.personDescriptors[1] == Self.descriptor(1))
        // Track 2 joins person 0 later and looks a little different: the name's descriptor stays.
        joining.record(id: 2, timestampMs: 3000, descriptor: Self.descriptor(0, 0.4))
        joining.retire(allBut: [])
        _ = joining.decide(atMs: 3000, descriptorsPendingSinceMs: nil)
        #expect(joining.decidedIDs[2] == 0)
        let atEnd = joining.videoPersonDescriptors()
        #expect(atEnd[0] == FaceDescriptor.mean(of: [Self.descriptor(0), Self.descriptor(0, 0.2)]))
        #expect(atEnd[1] == Self.descriptor(1))
        // A person none of whose first track's faces was described is settled, with no descriptor.
        joining.record(id: 3, timestampMs: 3100)
        #expect(joining.videoPersonDescriptors()[2] == .some(nil))
    }

    @Test(
        "decided as the frames come, with descriptors late and tracks retired, the IDs are those decided at the end",
        arguments: 0..<40)
    func sameAsAtTheEnd(seed: UInt64) {
        var random = SplitMix(seed: seed)
        let frames = 120
        // Tracks in order of appearance: a start, a life, some frames missed, a person, and when
        // the tracker lets go of it (at or after its last frame).
        struct Planned {
            var start: Int
            var frames: Set<Int>
            var person: Int
            var retired: Int
        }
        var planned: [Planned] = []
        var start = 0
        while start < frames, planned.count < 12 {
            let length = Int.random(in: 1...30, using: &random)
            let shown = Set((start..<min(frames, start + length)).filter { _ in Int.random(in: 0..<4, using: &random) > 0 })
            let last = shown.max() ?? start
            planned.append(Planned(
                start: start, frames: shown.union([start]), person: Int.random(in: 0..<4, using: &random),
                retired: last + Int.random(in: 0...20, using: &random)))
            start += Int.random(in: 0...12, using: &random)
        }
        var joining = TrackJoining(decisionHorizonMs: .infinity)
        var spans: [Int: (firstMs: Double, lastMs: Double, descriptors: [FaceDescriptor])] = [:]
        // Descriptors computing, each recorded a few frames after its own.
        var pending: [(due: Int, id: Int, timestampMs: Double, descriptor: FaceDescriptor)] = []
        var decided: [Int: Int] = [:]
        for frame in 0..<frames {
            let time = Double(frame) * 40
            for (id, track) in planned.enumerated() where track.frames.contains(frame) {
                joining.record(id: id, timestampMs: time)
                spans[id, default: (time, time, [])].lastMs = time
                if Int.random(in: 0..<3, using: &random) == 0 {
                    let nudge = Float(Int.random(in: -5...5, using: &random)) / 20
                    let descriptor = Self.descriptor(track.person, nudge)
                    pending.append((frame + Int.random(in: 0...3, using: &random), id, time, descriptor))
                    spans[id]!.descriptors.append(descriptor)
                }
            }
            while let first = pending.first, first.due <= frame {
                joining.record(id: first.id, timestampMs: first.timestampMs, descriptor: first.descriptor)
                pending.removeFirst()
            }
            let alive = Set(planned.indices.filter { planned[$0].start <= frame && planned[$0].retired > frame })
            joining.retire(allBut: alive)
            for (id, number) in joining.decide(atMs: time, descriptorsPendingSinceMs: pending.first?.timestampMs) {
                #expect(decided[id] == nil)
                decided[id] = number
            }
        }
        for item in pending { joining.record(id: item.id, timestampMs: item.timestampMs, descriptor: item.descriptor) }
        for (id, number) in joining.finish() { decided[id] = number }
        let reference = Self.referenceIDs(spans: spans, maximumDistance: TrackJoining.defaultMaximumDistance)
        #expect(decided == reference, "seed \(seed)")
        #expect(joining.videoIDs() == reference)
    }
}
