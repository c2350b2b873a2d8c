/// Pairs rows with columns of a weight matrix, each at most once, so that the pairs' total
/// weight is as large as possible: the Hungarian method of Kuhn and Munkres, O(n² m) for n rows
/// and m columns (n <= m; a taller matrix is solved transposed).
///
/// Unlike `GreedyAssignment`, which takes the heaviest pair first and can block two pairs that
/// together weigh more, this finds the optimum, as IDF1's definition asks (Ristani et al.,
/// "Performance Measures and a Data Set for Multi-Target, Multi-Camera Tracking", 2016). A pair
/// whose weight is not positive adds nothing and is left out, so rows and columns may stay
/// unpaired. Ties go to whichever optimum the method reaches first, deterministically.
///
/// ```swift
/// OptimalAssignment.pairs(weights: [[3, 2], [2, 0]])   // [(0, 1), (1, 0)]: 4, where greedy takes (0, 0): 3
/// ```
enum OptimalAssignment {
    /// The chosen `(row, column)` pairs, by row.
    static func pairs(weights: [[Double]]) -> [(row: Int, column: Int)] {
        let rows = weights.count
        let columns = weights.first?.count ?? 0
        precondition(weights.allSatisfy { $0.count == columns }, "OptimalAssignment: rows of different lengths")
        guard rows > 0, columns > 0 else { return [] }
        if rows > columns {
            let transposed = (0..<columns).map { column in (0..<rows).map { weights[$0][column] } }
            return pairs(weights: transposed).map { (row: $0.column, column: $0.row) }.sorted { $0.row < $1.row }
        }
        // Negative weights count as 0: leaving a pair out is never worse than taking it.
        let columnOfRow = minimumCostAssignment(cost: weights.map { row in row.map { -max(0, $0) } })
        return columnOfRow.enumerated().compactMap { row, column in
            weights[row][column] > 0 ? (row: row, column: column) : nil
        }
    }

    /// For each row of `cost` (no more rows than columns), the column it gets in an assignment
    /// of every row with the least total cost: the shortest augmenting path version with row and
    /// column potentials (`u`, `v`), 1-based with column 0 as the path's start.
    private static func minimumCostAssignment(cost: [[Double]]) -> [Int] {
        let rows = cost.count
        let columns = cost[0].count
        var u = [Double](repeating: 0, count: rows + 1)
        var v = [Double](repeating: 0, count: columns + 1)
        // rowOfColumn[j]: the row (1-based) column j is assigned to, 0 for none.
        var rowOfColumn = [Int](repeating: 0, count: columns + 1)
        var previousColumn = [Int](repeating: 0, count: columns + 1)
        for row in 1...rows {
            rowOfColumn[0] = row
            var column = 0
            var slack = [Double](repeating: .infinity, count: columns + 1)
            var visited = [Bool](repeating: false, count: columns + 1)
            // Grow a tree of tight edges from the new row until it reaches a free column.
            repeat {
                visited[column] = true
                let current = rowOfColumn[column]
                var delta = Double.infinity
                var next = 0
                for candidate in 1...columns where !visited[candidate] {
                    let reduced = cost[current - 1][candidate - 1] - u[current] - v[candidate]
                    if reduced < slack[candidate] {
                        slack[candidate] = reduced
                        previousColumn[candidate] = column
                    }
                    if slack[candidate] < delta {
                        delta = slack[candidate]
                        next = candidate
                    }
                }
                for candidate in 0...columns {
                    if visited[candidate] {
                        u[rowOfColumn[candidate]] += delta
                        v[candidate] -= delta
                    } else {
                        slack[candidate] -= delta
                    }
                }
                column = next
            } while rowOfColumn[column] != 0
            // Flip the assignments along the path back to the start.
            repeat {
                let previous = previousColumn[column]
                rowOfColumn[column] = rowOfColumn[previous]
                column = previous
            } while column != 0
        }
        var columnOfRow = [Int](repeating: 0, count: rows)
        for column in 1...columns where rowOfColumn[column] != 0 { columnOfRow[rowOfColumn[column] - 1] = column - 1 }
        return columnOfRow
    }
}
