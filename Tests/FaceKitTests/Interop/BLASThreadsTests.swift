import Foundation
import Testing
@testable import FaceKit

@Suite("BLASThreads")
struct BLASThreadsTests {
    @Test("sets OpenBLAS's thread count, or reports that the BLAS is another one")
    func setsThreads() {
        BLASSetting.whileHeld {
            let one = BLASThreads.set(1)
            #expect(one == nil || one == 1)
            // Back to OpenBLAS's default of one thread per core, for the tests that follow.
            let all = BLASThreads.set(ProcessInfo.processInfo.activeProcessorCount)
            #expect((one == nil) == (all == nil))
            if let all { #expect(all >= 1 && all <= ProcessInfo.processInfo.activeProcessorCount) }
        }
    }

    /// Whether update-alternatives points the system's BLAS at OpenBLAS, as scripts/setup does.
    static let systemBLASIsOpenBLAS = URL(fileURLWithPath: "/usr/lib/x86_64-linux-gnu/libblas.so.3")
        .resolvingSymlinksInPath().path.contains("openblas")

    @Test("finds OpenBLAS when it is the system's BLAS", .enabled(if: systemBLASIsOpenBLAS))
    func findsOpenBLAS() {
        BLASSetting.whileHeld {
            #expect(BLASThreads.set(ProcessInfo.processInfo.activeProcessorCount) != nil)
        }
    }
}
