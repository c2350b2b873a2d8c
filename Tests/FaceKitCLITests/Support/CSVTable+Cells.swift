import Foundation

@testable import FaceKitCLI

/// The tests' way into a CSV table that `facekit` wrote: `CSVTable` (the reader `facekit report`
/// uses, RFC 4180 quoting included) with its cells found by column name.
///
/// ```swift
/// let table = try CSVTable(text: run.stdout)
/// table.cells("status")              // ["detected", "failed"], nil without a status column
/// table.records[0]["source"]         // the first row's source
/// ```
extension CSVTable {
    /// The table in the UTF-8 file at `path`.
    init(contentsOfFile path: String) throws {
        try self.init(text: String(contentsOfFile: path, encoding: .utf8))
    }

    /// Each row as its cells by column name (a cell past the header's last column is left out).
    var records: [[String: String]] {
        rows.map { row in Dictionary(zip(header, row), uniquingKeysWith: { first, _ in first }) }
    }

    /// The cells of the column named `name`, a row each; `nil` when the table has no such column.
    func cells(_ name: String) -> [String]? {
        column(name).map { index in rows.map { $0[index] } }
    }
}
