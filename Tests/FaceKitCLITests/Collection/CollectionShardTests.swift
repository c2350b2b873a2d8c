import Testing

@testable import FaceKitCLI

@Suite("CollectionShard")
struct CollectionShardTests {
    @Test(
        "K/N parses only whole numbers with 1 <= K <= N",
        arguments: [
            ("1/1", true), ("2/4", true), ("4/4", true), ("10/12", true), ("0/4", false), ("5/4", false),
            ("-1/4", false), ("1/0", false), ("2", false), ("2/4/8", false), ("a/4", false), ("2/", false),
            ("/4", false), (" 2/4", false), ("+2/4", false), ("2.0/4", false), ("", false),
        ])
    func parsing(text: String, valid: Bool) {
        #expect((CollectionShard(argument: text) != nil) == valid)
    }

    @Test(
        "shard K takes the Kth contiguous run of positions",
        arguments: [("1/4", 0..<2), ("2/4", 2..<5), ("3/4", 5..<7), ("4/4", 7..<10)])
    func positions(text: String, expected: Range<Int>) throws {
        #expect(try #require(CollectionShard(argument: text)).positions(inCollectionOf: 10) == expected)
    }

    @Test("the shards of any collection cover every position once, in order, sizes within one")
    func partition() throws {
        for total in [0, 1, 2, 5, 7, 100, 1001] {
            for count in [1, 2, 3, 4, 7, 16, 1000] {
                let ranges = try (1...count).map {
                    try #require(CollectionShard(argument: "\($0)/\(count)")).positions(inCollectionOf: total)
                }
                #expect(ranges.flatMap { Array($0) } == Array(0..<total), "total \(total), \(count) shards")
                let sizes = ranges.map(\.count)
                #expect(sizes.max()! - sizes.min()! <= 1)
            }
        }
    }

    @Test("a huge shard count does not overflow")
    func hugeCount() throws {
        let shard = try #require(CollectionShard(argument: "\(Int.max)/\(Int.max)"))
        #expect(shard.positions(inCollectionOf: 1_000_000) == 999_999..<1_000_000)
    }
}
