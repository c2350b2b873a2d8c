/// A CSV file split into rows of cells as RFC 4180 reads it: quoted cells may hold commas,
/// doubled quotes and line breaks; lines end in LF or CRLF. The first row is the header.
///
/// ```swift
/// let table = CSVTable(text: "source,face\n\"a, b.jpg\",0\n")
/// table.header                        // ["source", "face"]
/// table.rows[0][table.column("source")!]   // "a, b.jpg"
/// ```
struct CSVTable {
    var header: [String]
    var rows: [[String]]

    init(text: String) {
        var all = Self.split(text)
        header = all.isEmpty ? [] : all.removeFirst()
        // A byte-order mark some editors add would hide the first column's name.
        if let first = header.first, first.hasPrefix("\u{FEFF}") { header[0] = String(first.dropFirst()) }
        rows = all
    }

    /// The index of the column named `name`, `nil` when the table has none.
    func column(_ name: String) -> Int? { header.firstIndex(of: name) }

    private static func split(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var cell = String.UnicodeScalarView()
        var quoted = false
        var afterQuote = false
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func endRow() {
            row.append(String(cell))
            cell = String.UnicodeScalarView()
            // A blank line is no row.
            if !(row.count == 1 && row[0].isEmpty) { rows.append(row) }
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
                    cell.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where cell.isEmpty && !afterQuote:
                quoted = true
            case ",":
                row.append(String(cell))
                cell = String.UnicodeScalarView()
                afterQuote = false
            case "\n":
                endRow()
                afterQuote = false
            case "\r":
                let next = scalars.next()
                if next != "\n" { pending = next }
                endRow()
                afterQuote = false
            default:
                cell.append(scalar)
            }
        }
        if !cell.isEmpty || !row.isEmpty { endRow() }
        return rows
    }
}
