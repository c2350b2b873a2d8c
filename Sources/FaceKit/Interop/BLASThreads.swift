internal import CFaceKit

/// How many threads the system BLAS (OpenBLAS) gives each matrix product of dlib's CNNs: accurate
/// mode's detector and the face descriptor. One setting for the whole process.
///
/// OpenBLAS uses every core for each product by default, which is right for one worker doing
/// nothing else. With several workers each running a CNN, give each one thread, so that N workers
/// use N cores rather than asking for N x cores threads; do the same for a re-identifying
/// ``FaceTracker``, because OpenBLAS's idle threads spin after each product and take the cores
/// that decoding and the detector need, and before ``FaceClustering``, whose tiles already use
/// every core. No FaceKit type calls it: the setting belongs to the process, so the executable
/// decides, once, before its work starts. It has `package` access, for FaceKit's own executables
/// (`facekit`'s `ProcessBLAS`, facekit-evaluate): a program that uses the library makes the same
/// setting with `OPENBLAS_NUM_THREADS=1` in its environment (docs/swift.md), which OpenBLAS reads
/// as it loads, and a library has no business changing for its caller.
///
/// ```swift
/// if jobs > 1 { BLASThreads.set(1) }   // 1 with OpenBLAS, nil with another BLAS
/// ```
package enum BLASThreads {
    /// Makes OpenBLAS use `count` threads per call from now on, and returns the number it reports
    /// using, or `nil` when the process's BLAS is not OpenBLAS (it is then left as it is; the
    /// reference BLAS is single-threaded). Call it before workers start. Runs
    /// `fk_blas_set_threads`.
    @discardableResult
    package static func set(_ count: Int) -> Int? {
        precondition(count >= 1, "BLASThreads.set: count must be at least 1, not \(count)")
        var inUse: Int32 = 0
        let status = fk_blas_set_threads(Int32(clamping: count), &inUse, nil)
        precondition(status == NativeStatus.ok.rawValue, "BLASThreads.set: fk_blas_set_threads failed")
        return inUse == 0 ? nil : Int(inUse)
    }
}
