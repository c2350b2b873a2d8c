import Foundation
import Testing

@testable import FaceKitCLI

@Suite("CSV tables read by column name in the tests")
struct CSVTableCellsTests {
    static let text = "source,face,failure\r\n\"a, \"\"b\"\".jpg\",0,\nc.jpg,,\"image too large: 3x3, over 1\"\n"

    @Test("cells and records by column name, quoted commas and quotes kept in their cell")
    func byName() throws {
        let table = try CSVTable(text: Self.text)
        #expect(table.cells("source") == ["a, \"b\".jpg", "c.jpg"])
        #expect(table.cells("face") == ["0", ""])
        #expect(table.cells("failure") == ["", "image too large: 3x3, over 1"])
        #expect(table.cells("status") == nil)
        #expect(table.records == [
            ["source": "a, \"b\".jpg", "face": "0", "failure": ""],
            ["source": "c.jpg", "face": "", "failure": "image too large: 3x3, over 1"],
        ])
    }

    @Test("a file is read as its text is")
    func fromFile() throws {
        let path = NSTemporaryDirectory() + "facekit-csv-cells-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.text.write(toFile: path, atomically: true, encoding: .utf8)
        let table = try CSVTable(contentsOfFile: path)
        #expect(table.header == ["source", "face", "failure"])
        #expect(table.records == (try CSVTable(text: Self.text)).records)
    }
}
