// `package` (the tools see it, users of the library do not): FaceKitDatasets pairs detections with
// labelled boxes as the tracker pairs detections with tracks, and its optimal matching is tested
// against this.

/// Pairs rows with columns of a score matrix, best score first, each at most once.
///
/// With the few faces of a video frame, greedy matching by overlap gives the same answer as the
/// Hungarian method in all but contrived cases, and is simpler to follow. Ties go to the lower
/// row, then the lower column, so results are deterministic.
///
/// ```swift
/// GreedyAssignment.pairs(scores: [[0.9, 0.3], [0.8, 0.1]], minimum: 0.2)   // [(0, 0)]
/// ```
/// (row 1 wanted column 0 too, and 0.1 is below the minimum.)
package enum GreedyAssignment {
    /// The chosen `(row, column)` pairs, in the order they were chosen; scores below `minimum`
    /// are never chosen.
    package static func pairs(scores: [[Double]], minimum: Double) -> [(row: Int, column: Int)] {
        var candidates: [(score: Double, row: Int, column: Int)] = []
        for (row, rowScores) in scores.enumerated() {
            for (column, score) in rowScores.enumerated() where score >= minimum {
                candidates.append((score, row, column))
            }
        }
        candidates.sort { ($0.score, -$0.row, -$0.column) > ($1.score, -$1.row, -$1.column) }
        var usedRows = Set<Int>()
        var usedColumns = Set<Int>()
        var chosen: [(row: Int, column: Int)] = []
        for candidate in candidates where !usedRows.contains(candidate.row) && !usedColumns.contains(candidate.column) {
            usedRows.insert(candidate.row)
            usedColumns.insert(candidate.column)
            chosen.append((candidate.row, candidate.column))
        }
        return chosen
    }
}
