/// A complete journal line that no facekit run writes: refused by name, since resuming from a
/// guess could lose or repeat rows. (A last line without its LF is a run killed mid-write, and
/// is not damage.)
///
/// ```
/// faces.csv.journal: line 3 is damaged (not a checkpoint), so how far the run got is not known; to start
/// over, run the command again without --resume, which replaces the journal
/// ```
struct DamagedJournalLine: Error, Equatable, CustomStringConvertible {
    var path: String
    /// Counted from 1.
    var line: Int
    var reason: String

    var description: String {
        "\(path): line \(line) is damaged (\(reason)), so how far the run got is not known; "
            + "to start over, run the command again without --resume, which replaces the journal"
    }
}
