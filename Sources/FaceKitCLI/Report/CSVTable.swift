/// A CSV file split into rows of cells as RFC 4180 reads it: quoted cells may hold commas,
/// doubled quotes and line breaks; lines end in LF or CRLF. The first row is the header.
///
/// A file that cannot be a table is refused by its line: a quote still open at the end (its
/// cell would swallow every row after it), and a row with fewer cells than the header (a
/// truncated row, whose missing cells would read as absent values).
///
/// ```swift
/// let table = try CSVTable(text: "source,face\n\"a, b.jpg\",0\n")
/// table.header                        // ["source", "face"]
/// table.rows[0][table.column("source")!]   // "a, b.jpg"
/// table.lines[0]                      // 2
/// ```
struct CSVTable {
    var header: [String]
    var rows: [[String]]
    /// The line each row starts on, counted from 1 (a quoted line break makes a row span lines).
    var lines: [Int]

    /// Why a text is not a CSV table.
    struct Malformed: Error, Equatable, CustomStringConvertible {
        /// Counted from 1.
        var line: Int
        var reason: String
        var description: String { "line \(line): \(reason)" }
    }

    init(text: String) throws(Malformed) {
        var all = try Self.split(text)
        header = all.isEmpty ? [] : all.removeFirst().cells
        // A byte-order mark some editors add would hide the first column's name.
        if let first = header.first, first.hasPrefix("\u{FEFF}") { header[0] = String(first.dropFirst()) }
        rows = all.map(\.cells)
        lines = all.map(\.line)
        for (row, line) in zip(rows, lines) where row.count < header.count {
            throw Malformed(
                line: line, reason: "\(row.count) \(row.count == 1 ? "cell" : "cells"), but the header has \(header.count)")
        }
    }

    /// The index of the column named `name`, `nil` when the table has none.
    func column(_ name: String) -> Int? { header.firstIndex(of: name) }

    private static func split(_ text: String) throws(Malformed) -> [(cells: [String], line: Int)] {
        var rows: [(cells: [String], line: Int)] = []
        var row: [String] = []
        var cell = String.UnicodeScalarView()
        var quoted = false
        var afterQuote = false
        var line = 1
        var rowLine = 1
        var quoteLine = 1
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func endRow() {
            row.append(String(cell))
            cell = String.UnicodeScalarView()
            // A blank line is no row.
            if !(row.count == 1 && row[0].isEmpty) { rows.append((row, rowLine)) }
            row = []
        }
        while let scalar = pending ?? scalars.next() {
            pending = nil
            if quoted {
                if scalar == "\"" {
                    let next = scalars.next()
                    if next == "\"" {
                        cell.append("\"")
                    } else {
                        quoted = false
                        afterQuote = true
                        pending = next
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    cell.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where cell.isEmpty && !afterQuote:
                quoted = true
                quoteLine = line
            case ",":
                row.append(String(cell))
                cell = String.UnicodeScalarView()
                afterQuote = false
            case "\n":
                endRow()
                afterQuote = false
                line += 1
                rowLine = line
            case "\r":
                let next = scalars.next()
                if next != "\n" { pending = next }
                endRow()
                afterQuote = false
                line += 1
                rowLine = line
            default:
                cell.append(scalar)
            }
        }
        if quoted { throw Malformed(line: quoteLine, reason: "a quoted cell opened here is never closed") }
        if !cell.isEmpty || !row.isEmpty { endRow() }
        return rows
    }
}
