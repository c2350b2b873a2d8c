import FaceKit
import Foundation

/// The numbers of one row of a table `facekit report` reads, each held to the range any table
/// FaceKit writes keeps it in (``Limits``): a probability from 0 to 1, a frame from 0, a time
/// within ``Limits/timestampMs`` of 0, and so on. A cell that is there but is not such a number
/// (`1e18` as a probability, `1e300` as a time, `-9223372036854775808` as a frame, `thirty`)
/// makes the row's ``problem``, naming the column and the value, and the row is not shown: such
/// values come only from a damaged or hand-made table, and drawing them would overflow the
/// arithmetic of the pages (a trap) or their loops (a time axis of 10^15 ticks).
///
/// ```swift
/// var values = ReportRowValues { column in row[column] }      // the cell's text, nil when empty
/// let smile = values.number("smiling_probability", in: ReportRowValues.Limits.probability, "a probability from 0 to 1")
/// values.problem   // "smiling_probability is 1e18, not a probability from 0 to 1"
/// ```
struct ReportRowValues {
    /// The ranges values are held to.
    enum Limits {
        static let probability = 0.0...1.0
        /// Degrees: ML Kit's Euler angles lie within ±180.
        static let angle = -180.0...180.0
        /// About 3 years of video, in milliseconds: far beyond any clip or live run, and small
        /// enough that every time computed from it (axis ticks, `m:ss`) stays exact and bounded.
        static let timestampMs = -1e11...1e11
        /// A frame index of 3 years at 1000 frames a second.
        static let frame = 0...100_000_000_000
        /// Face indices, tracking IDs, person IDs and counts.
        static let count = 0...1_000_000_000
        /// A descriptor distance (dlib's are about 0 to 1.5).
        static let distance = 0.0...100.0
        /// Landmark coordinates, as box coordinates (``ReportTable/largestCoordinate``).
        static let coordinate = -ReportTable.largestCoordinate...ReportTable.largestCoordinate
    }

    /// A cell as the table holds it: its text, for messages, and its number when it is one.
    struct Cell {
        var text: String
        var number: Double?
        var integer: Int?
    }

    /// The cell of a column, `nil` when the row has none (an empty CSV cell, a JSON key missing or null).
    let cell: (String) -> Cell?
    /// What is wrong with the row: the first value out of range, named by its column.
    private(set) var problem: String?

    init(cell: @escaping (String) -> Cell?) {
        self.cell = cell
    }

    /// A CSV row's cells, found by `text` (the cell's text, `nil` when empty).
    init(csv text: @escaping (String) -> String?) {
        self.init { column in
            text(column).map { Cell(text: $0, number: Double($0), integer: Int($0)) }
        }
    }

    /// A JSON object's values; a column `a.b` is the key `b` of the object at `a`.
    init(json object: [String: Any]) {
        self.init { column in
            var value: Any? = object
            for key in column.split(separator: ".") { value = (value as? [String: Any])?[String(key)] }
            guard let value, !(value is NSNull) else { return nil }
            if let number = JSONNumber.of(value) {
                return Cell(text: number.description, number: number.doubleValue, integer: JSONNumber.integer(number))
            }
            let text =
                if let string = value as? String { "\"\(string)\"" } else if let flag = value as? NSNumber {
                    flag.boolValue ? "true" : "false"
                } else { "an object or array" }
            return Cell(text: text, number: nil, integer: nil)
        }
    }

    /// The number in `column`, `nil` when it is absent or not within `range` (the row's
    /// ``problem`` then says so, `what` naming what it should be).
    mutating func number(_ column: String, in range: ClosedRange<Double>, _ what: String) -> Double? {
        guard let value = cell(column) else { return nil }
        guard let number = value.number, number.isFinite, range.contains(number) else {
            fail(column, value, what)
            return nil
        }
        return number
    }

    /// The whole number in `column`, as ``number(_:in:_:)``.
    mutating func integer(_ column: String, in range: ClosedRange<Int>, _ what: String) -> Int? {
        guard let value = cell(column) else { return nil }
        guard let integer = value.integer, range.contains(integer) else {
            fail(column, value, what)
            return nil
        }
        return integer
    }

    /// A probability from 0 to 1.
    mutating func probability(_ column: String) -> Double? {
        number(column, in: Limits.probability, "a probability from 0 to 1")
    }

    /// Records `problem` (a whole-row problem, such as its box) unless the row has one already.
    mutating func fail(_ problem: String) {
        if self.problem == nil { self.problem = problem }
    }

    private mutating func fail(_ column: String, _ value: Cell, _ what: String) {
        // A damaged cell may be long: the message shows its start.
        let shown = value.text.count > 40 ? String(value.text.prefix(40)) + "…" : value.text
        fail("\(column) is \(shown), not \(what)")
    }
}
