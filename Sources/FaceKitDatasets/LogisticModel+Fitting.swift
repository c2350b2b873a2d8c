import Foundation

import FaceKit

// LogisticModel is `package` (only the tools fit one), and so is this extension.
extension LogisticModel {
    /// Fits a model to `samples` (rows of features) and 0/1 `labels`: Newton's method with a light
    /// L2 penalty on the weights (not the bias), on features standardised by their means and
    /// standard deviations, which the model keeps. `weights` (one per sample, default all 1) say
    /// how much each sample counts, for example so that each person or each class counts equally
    /// however many samples it has.
    ///
    /// ```swift
    /// LogisticModel.fit(samples: [[0], [1], [2], [3]], labels: [false, false, true, true]).weights[0] > 0   // true
    /// ```
    package static func fit(
        samples: [[Double]], labels: [Bool], weights sampleWeights: [Double]? = nil, l2: Double = 1e-2,
        iterations: Int = 50
    ) -> LogisticModel {
        precondition(!samples.isEmpty && samples.count == labels.count, "LogisticModel.fit: one label per sample")
        precondition(sampleWeights.map { $0.count == samples.count } ?? true, "LogisticModel.fit: one weight per sample")
        let weightOf = sampleWeights ?? [Double](repeating: 1, count: samples.count)
        let totalWeight = weightOf.reduce(0, +)
        let n = Double(samples.count)
        let d = samples[0].count
        let means = (0..<d).map { j in samples.reduce(0) { $0 + $1[j] } / n }
        let scales = (0..<d).map { j in
            max(1e-9, (samples.reduce(0) { $0 + pow($1[j] - means[j], 2) } / n).squareRoot())
        }
        // Standardised design matrix with a leading column of ones for the bias.
        let x = samples.map { row in [1.0] + (0..<d).map { (row[$0] - means[$0]) / scales[$0] } }
        let y = labels.map { $0 ? 1.0 : 0.0 }
        var beta = [Double](repeating: 0, count: d + 1)
        for _ in 0..<iterations {
            var gradient = [Double](repeating: 0, count: d + 1)
            var hessian = [[Double]](repeating: [Double](repeating: 0, count: d + 1), count: d + 1)
            for ((row, target), sampleWeight) in zip(zip(x, y), weightOf) {
                let p = 1 / (1 + exp(-zip(row, beta).reduce(0) { $0 + $1.0 * $1.1 }))
                let w = max(p * (1 - p), 1e-12) * sampleWeight
                for a in 0...d {
                    gradient[a] += (p - target) * sampleWeight * row[a]
                    for b in a...d { hessian[a][b] += w * row[a] * row[b] }
                }
            }
            for a in 0...d { for b in 0..<a { hessian[a][b] = hessian[b][a] } }
            for a in 1...d {  // the bias is not penalised
                gradient[a] += l2 * totalWeight * beta[a]
                hessian[a][a] += l2 * totalWeight
            }
            let step = solve(hessian, gradient)
            for a in 0...d { beta[a] -= step[a] }
            if step.map(abs).max()! < 1e-10 { break }
        }
        return LogisticModel(means: means, scales: scales, weights: Array(beta.dropFirst()), bias: beta[0])
    }

    /// Solves `a x = b` by Gaussian elimination with partial pivoting (a is small and symmetric
    /// positive definite here).
    static func solve(_ a: [[Double]], _ b: [Double]) -> [Double] {
        var m = a
        var v = b
        let n = b.count
        for col in 0..<n {
            let pivot = (col..<n).max { abs(m[$0][col]) < abs(m[$1][col]) }!
            m.swapAt(col, pivot)
            v.swapAt(col, pivot)
            guard abs(m[col][col]) > 1e-300 else { continue }
            for row in (col + 1)..<n {
                let factor = m[row][col] / m[col][col]
                for k in col..<n { m[row][k] -= factor * m[col][k] }
                v[row] -= factor * v[col]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = v[row]
            for k in (row + 1)..<n { sum -= m[row][k] * x[k] }
            x[row] = abs(m[row][row]) > 1e-300 ? sum / m[row][row] : 0
        }
        return x
    }
}
