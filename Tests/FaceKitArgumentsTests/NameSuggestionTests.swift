import Testing

@testable import FaceKitArguments

@Suite("NameSuggestion")
struct NameSuggestionTests {
    @Test(
        "counts insertions, deletions, replacements and swaps of neighbours as one edit each",
        arguments: [
            ("landmark", "landmarks", 1), ("analyse", "analyze", 1), ("ned", "end", 1), ("kitten", "sitting", 3),
            ("", "abc", 3), ("same", "same", 0),
        ])
    func editDistance(a: String, b: String, edits: Int) {
        #expect(NameSuggestion.editDistance(Array(a), Array(b)) == edits)
        #expect(NameSuggestion.editDistance(Array(b), Array(a)) == edits)
    }

    @Test(
        "suggests the closest name within two edits, or the only name the word starts, or the only one holding its words",
        arguments: [
            ("landmark", "landmarks"), ("jbos", "jobs"), ("min-face", "min-face-size"), ("mdoe", "mode"),
            ("min-size", "min-face-size"), ("detection-score", "min-detection-score"),
            ("ab", nil), ("min", nil), ("bogus", nil), ("", nil),
        ] as [(String, String?)])
    func closest(typed: String, expected: String?) {
        let names = ["mode", "landmarks", "min-face-size", "min-detection-score", "jobs", "cd"]
        #expect(NameSuggestion.closest(to: typed, among: names) == expected)
    }
}
