import Foundation

/// Eigenvalues and eigenvectors of a small symmetric matrix by cyclic Jacobi rotations: enough
/// for the factorisations of ``MeanFaceFit`` (68x68 at most) without a linear-algebra package.
struct SymmetricEigen {
    /// Eigenvalues, largest first.
    var values: [Double]
    /// `vectors[k]` is the unit eigenvector of `values[k]`.
    var vectors: [[Double]]

    /// `matrix` is row-major n x n and symmetric.
    init(_ matrix: [[Double]]) {
        let n = matrix.count
        var a = matrix
        var v = (0..<n).map { i in (0..<n).map { $0 == i ? 1.0 : 0.0 } }
        for _ in 0..<100 {
            var offDiagonal = 0.0
            for p in 0..<n { for q in (p + 1)..<n { offDiagonal += a[p][q] * a[p][q] } }
            if offDiagonal < 1e-22 { break }
            for p in 0..<n {
                for q in (p + 1)..<n where abs(a[p][q]) > 1e-300 {
                    let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                    let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                    let c = 1 / (t * t + 1).squareRoot(), s = t * c
                    for k in 0..<n {
                        let (akp, akq) = (a[k][p], a[k][q])
                        a[k][p] = c * akp - s * akq
                        a[k][q] = s * akp + c * akq
                    }
                    for k in 0..<n {
                        let (apk, aqk) = (a[p][k], a[q][k])
                        a[p][k] = c * apk - s * aqk
                        a[q][k] = s * apk + c * aqk
                    }
                    for k in 0..<n {
                        let (vkp, vkq) = (v[k][p], v[k][q])
                        v[k][p] = c * vkp - s * vkq
                        v[k][q] = s * vkp + c * vkq
                    }
                }
            }
        }
        let order = (0..<n).sorted { a[$0][$0] > a[$1][$1] }
        values = order.map { a[$0][$0] }
        vectors = order.map { k in (0..<n).map { v[$0][k] } }
    }
}
