import FaceKit
import Foundation

/// A 3D mean face at all 68 of dlib's points, fitted to 2D shapes of many faces seen at a range
/// of poses: Tomasi-Kanade's rigid factorisation with the metric constraints of a scaled
/// orthographic camera. Each face's centred, unit-size shape is two rows of a 2F x 68 matrix;
/// its best rank-3 factorisation is motion x shape, fixed up to a 3x3 matrix Q that the
/// constraints (each face's two camera rows orthogonal and of equal length) determine. The
/// result is turned and scaled onto the old 14-point model (so its frame and unit are the face
/// frame's: x toward the subject's left, y down, z into the head, about a centimetre) and made
/// left-right symmetric by averaging with its mirror image. People's own proportions and
/// expressions are noise to it; their mean is what is left.
enum MeanFaceFit {
    /// The fitted model, one point per dlib index 0...67.
    static func fit(_ shapes: [FaceShape], alignedTo reference: [(dlibIndex: Int, x: Double, y: Double, z: Double)])
        -> [SIMD3<Double>]
    {
        let n = 68
        // Rows: x then y of each face, centred and scaled to unit size.
        var rows: [[Double]] = []
        for shape in shapes {
            let points = shape.points
            let mx = points.map { Double($0.x) }.reduce(0, +) / Double(n)
            let my = points.map { Double($0.y) }.reduce(0, +) / Double(n)
            let xs = points.map { Double($0.x) - mx }, ys = points.map { Double($0.y) - my }
            let size = (xs.map { $0 * $0 }.reduce(0, +) + ys.map { $0 * $0 }.reduce(0, +)).squareRoot()
            rows.append(xs.map { $0 / size })
            rows.append(ys.map { $0 / size })
        }
        // Rank 3: W ≈ U S Vᵀ from the eigenvectors of WᵀW (68 x 68).
        var gram = Array(repeating: Array(repeating: 0.0, count: n), count: n)
        for row in rows {
            for i in 0..<n { for j in i..<n { gram[i][j] += row[i] * row[j] } }
        }
        for i in 0..<n { for j in 0..<i { gram[i][j] = gram[j][i] } }
        let eigen = SymmetricEigen(gram)
        // Shape (3 x 68) = sqrt(S) Vᵀ; each row's camera vector = W V / sqrt(S).
        let roots = (0..<3).map { eigen.values[$0].squareRoot() }
        let shape = (0..<3).map { k in eigen.vectors[k].map { $0 * roots[k] } }
        let motion = rows.map { row in
            (0..<3).map { k in zip(row, eigen.vectors[k]).map { $0 * $1 }.reduce(0, +) / roots[k] }
        }
        // Metric constraints on L = Q Qᵀ (6 unknowns): m_x L m_xᵀ = m_y L m_yᵀ, m_x L m_yᵀ = 0.
        func coefficients(_ a: [Double], _ b: [Double]) -> [Double] {
            [
                a[0] * b[0], a[0] * b[1] + a[1] * b[0], a[0] * b[2] + a[2] * b[0], a[1] * b[1],
                a[1] * b[2] + a[2] * b[1], a[2] * b[2],
            ]
        }
        var normal = Array(repeating: Array(repeating: 0.0, count: 6), count: 6)
        for face in 0..<shapes.count {
            let (mx, my) = (motion[2 * face], motion[2 * face + 1])
            let equal = zip(coefficients(mx, mx), coefficients(my, my)).map { $0 - $1 }
            for c in [equal, coefficients(mx, my)] {
                for i in 0..<6 { for j in 0..<6 { normal[i][j] += c[i] * c[j] } }
            }
        }
        let l = SymmetricEigen(normal).vectors[5]
        var big = [[l[0], l[1], l[2]], [l[1], l[3], l[4]], [l[2], l[4], l[5]]]
        if big[0][0] + big[1][1] + big[2][2] < 0 { big = big.map { $0.map { -$0 } } }
        // Q = V sqrt(Λ), so the metric shape is Q⁻¹ S = Λ^(-1/2) Vᵀ S.
        let lEigen = SymmetricEigen(big)
        var points = (0..<n).map { i -> SIMD3<Double> in
            let s = SIMD3(shape[0][i], shape[1][i], shape[2][i])
            let v = lEigen.vectors
            return SIMD3(
                (SIMD3(v[0][0], v[0][1], v[0][2]) * s).sum() / max(lEigen.values[0], 1e-12).squareRoot(),
                (SIMD3(v[1][0], v[1][1], v[1][2]) * s).sum() / max(lEigen.values[1], 1e-12).squareRoot(),
                (SIMD3(v[2][0], v[2][1], v[2][2]) * s).sum() / max(lEigen.values[2], 1e-12).squareRoot())
        }
        points = similarity(points, onto: reference)
        return symmetrised(points)
    }

    /// The points turned (or mirrored: factorisation leaves depth's sign open), scaled and
    /// moved to best match `reference` at its dlib indices.
    static func similarity(_ points: [SIMD3<Double>], onto reference: [(dlibIndex: Int, x: Double, y: Double, z: Double)])
        -> [SIMD3<Double>]
    {
        let source = reference.map { points[$0.dlibIndex] }
        let target = reference.map { SIMD3($0.x, $0.y, $0.z) }
        let sourceMean = source.reduce(.zero, +) / Double(source.count)
        let targetMean = target.reduce(.zero, +) / Double(target.count)
        // Orthogonal Procrustes: R = U Vᵀ from the SVD of H = Σ aᵢ bᵢᵀ, via the eigenvectors of HᵀH.
        var h = Array(repeating: Array(repeating: 0.0, count: 3), count: 3)
        var sourceSize = 0.0
        for (a, b) in zip(source, target) {
            let (ca, cb) = (a - sourceMean, b - targetMean)
            for i in 0..<3 { for j in 0..<3 { h[i][j] += ca[i] * cb[j] } }
            sourceSize += (ca * ca).sum()
        }
        // Typed row by row: the nested one-expression forms took the type checker 8 s.
        let hth: [[Double]] = (0..<3).map { i in
            (0..<3).map { j -> Double in (0..<3).map { (r: Int) -> Double in h[r][i] * h[r][j] }.reduce(0, +) }
        }
        let eigen = SymmetricEigen(hth)
        // V's columns are HᵀH's eigenvectors; U's are H vₖ / σₖ.
        let v = eigen.vectors
        let sigmas = eigen.values.map { max($0, 0).squareRoot() }
        let u: [[Double]] = (0..<3).map { k in
            (0..<3).map { i -> Double in (0..<3).map { (c: Int) -> Double in h[i][c] * v[k][c] }.reduce(0, +) / sigmas[k] }
        }
        // R (3x3) maps a source vector a to Σₖ vₖ (uₖ·a).
        let scale = sigmas.reduce(0, +) / sourceSize
        return points.map { p in
            let a = p - sourceMean
            var out = targetMean
            for k in 0..<3 {
                let along = (0..<3).map { u[k][$0] * a[$0] }.reduce(0, +)
                out += SIMD3(v[k][0], v[k][1], v[k][2]) * (along * scale)
            }
            return out
        }
    }

    /// The mean of the points and their mirror image (x negated, left and right points swapped).
    static func symmetrised(_ points: [SIMD3<Double>]) -> [SIMD3<Double>] {
        let mirror = Array((0...16).reversed()) + Array((17...26).reversed()) + [27, 28, 29, 30]
            + Array((31...35).reversed()) + [45, 44, 43, 42, 47, 46, 39, 38, 37, 36, 41, 40]
            + [54, 53, 52, 51, 50, 49, 48, 59, 58, 57, 56, 55] + [64, 63, 62, 61, 60, 67, 66, 65]
        return points.indices.map { i in
            let m = points[mirror[i]]
            return (points[i] + SIMD3(-m.x, m.y, m.z)) / 2
        }
    }
}
