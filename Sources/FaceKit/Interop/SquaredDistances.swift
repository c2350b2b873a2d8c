internal import CFaceKit

/// Squared Euclidean distances between two blocks of descriptors (`fk_squared_distances`: one
/// matrix product through the system BLAS), the bulk of the work of ``NearestNeighbourGraph``.
/// Keeps no state, so blocks may be computed on several threads at once.
enum SquaredDistances {
    /// Writes to `out` (`aCount` x `bCount`, row-major) the squared distance between every row of
    /// `a` and every row of `b` (rows of `dimension` floats); fails only when out of memory.
    static func compute(
        _ a: UnsafePointer<Float>, count aCount: Int, _ b: UnsafePointer<Float>, count bCount: Int, dimension: Int,
        into out: UnsafeMutablePointer<Float>
    ) throws(FaceKitError) {
        try callNative(subject: "descriptor distances") {
            fk_squared_distances(a, Int32(aCount), b, Int32(bCount), Int32(dimension), out, $0)
        }
    }
}
