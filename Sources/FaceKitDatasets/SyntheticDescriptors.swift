import Foundation

/// Made-up face descriptors with known people, for measuring clustering at sizes the development
/// data does not reach (docs/benchmarks.md) and for tests.
///
/// Each person is a random point in `dimension` dimensions; each of their faces is that point
/// plus Gaussian noise. With the defaults, two faces of one person lie about 0.4 apart and two
/// people about 0.9, as with dlib's descriptor. People have Zipf-like numbers of faces (the
/// person of rank r about 1/r of the first's), as in a photo collection: a few people in many
/// photos, many in one or two. The same seed always gives the same descriptors.
public struct SyntheticDescriptors: Sendable {
    /// `count` rows of `dimension` floats, row-major.
    public let values: [Float]
    /// The person (0-based) of each face.
    public let people: [Int]
    public let dimension: Int

    public var count: Int { people.count }

    public init(
        faces: Int, people peopleCount: Int, dimension: Int = 128, sameDistance: Double = 0.4,
        otherDistance: Double = 0.9, seed: UInt64 = 1
    ) {
        precondition(faces >= peopleCount && peopleCount >= 1, "need at least one face per person")
        var generator = Generator(state: seed)
        // E|x - y| for two Gaussian points of per-value deviation s is about s * sqrt(2 * dimension).
        let spread = 1 / (2 * Double(dimension)).squareRoot()
        let centres = (0..<peopleCount * dimension).map { _ in Float(otherDistance * spread * generator.normal()) }
        // Every person once, the rest by Zipf weights.
        var assigned = Array(0..<peopleCount)
        let weights = (1...peopleCount).map { 1 / Double($0) }
        let cumulative = weights.reduce(into: [Double]()) { $0.append(($0.last ?? 0) + $1) }
        for _ in peopleCount..<faces {
            let draw = generator.uniform() * cumulative[cumulative.count - 1]
            var low = 0
            var high = cumulative.count - 1
            while low < high {
                let middle = (low + high) / 2
                if cumulative[middle] < draw { low = middle + 1 } else { high = middle }
            }
            assigned.append(low)
        }
        // Shuffled, so that a person's faces are not side by side.
        for index in stride(from: assigned.count - 1, to: 0, by: -1) {
            assigned.swapAt(index, Int(generator.next() % UInt64(index + 1)))
        }
        var values: [Float] = []
        values.reserveCapacity(faces * dimension)
        // Two faces of one person differ by the noise of both: sqrt(2) x the noise of one.
        let noise = sameDistance * spread
        for person in assigned {
            for d in 0..<dimension {
                values.append(centres[person * dimension + d] + Float(noise * generator.normal()))
            }
        }
        self.values = values
        self.people = assigned
        self.dimension = dimension
    }

    /// The descriptor of face `index`.
    public func descriptor(_ index: Int) -> [Float] {
        Array(values[index * dimension..<(index + 1) * dimension])
    }

    /// SplitMix64 with uniform and normal draws.
    private struct Generator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        /// In (0, 1].
        mutating func uniform() -> Double { (Double(next() >> 11) + 1) / Double(1 << 53) }

        /// Box-Muller.
        mutating func normal() -> Double {
            let radius = (-2 * Foundation.log(uniform())).squareRoot()
            return radius * Foundation.cos(2 * Double.pi * uniform())
        }
    }
}
