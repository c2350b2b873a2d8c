import Foundation
import Testing

@testable import FaceKitCLI

@Suite("BackgroundWalkCount")
struct BackgroundWalkCountTests {
    @Test("counts on its own thread what the walk yields, past the cancellation checks, and cancel is harmless after")
    func countsTheWalk() throws {
        try TestSupport.withTemporaryFolder { root in
            // More than 256, so that the counting thread checks for cancellation on the way.
            for index in 0..<600 { try TestSupport.makeFile(root, "sub\(index % 3)/\(index).png") }
            try TestSupport.makeFile(root, "notes.txt")
            let count = BackgroundWalkCount(paths: [root, root + "/sub1"])
            let deadline = ContinuousClock.now + .seconds(30)
            while count.total == nil, ContinuousClock.now < deadline { usleep(1000) }
            #expect(count.total == 800)
            #expect(count.total == ImageFileWalker(paths: [root, root + "/sub1"]).reduce(0) { n, _ in n + 1 })
            count.cancel()
            #expect(count.total == 800)
        }
    }
}
