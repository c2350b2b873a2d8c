import Foundation

@testable import FaceKit

/// The process's BLAS thread count, for the tests that change it and the tests whose values
/// depend on it. OpenBLAS splits a product differently on one thread and on several, and the last
/// bits of the face descriptor differ; the tests run in parallel, so a test comparing descriptors
/// bit for bit sets the count it compares at and holds it while it computes, and a test that
/// changes the count holds it too. (The `facekit` commands the CLI tests run in-process only ever
/// set one thread, `ProcessBLAS`.)
enum BLASSetting {
    private static let lock = NSLock()

    /// Runs `body` with OpenBLAS on `threads` threads per product, no other test changing it meanwhile.
    static func with<T>(threads: Int, _ body: () throws -> T) rethrows -> T {
        try whileHeld {
            BLASThreads.set(threads)
            return try body()
        }
    }

    /// Runs `body`, which changes the count, while no test relies on it.
    static func whileHeld<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
