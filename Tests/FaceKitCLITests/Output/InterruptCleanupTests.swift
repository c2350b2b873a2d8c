import Foundation
import Testing

@testable import FaceKitCLI

#if canImport(Glibc)
    import Glibc
#endif

/// What an interrupted run removes (``InterruptCleanup/OwnedFile``): its own hidden file, by name
/// in the folder it was made in, and nothing else: not a file swapped in at that name, and not a
/// file of that name in the folder the path leads to once the folder was swapped for a link.
/// The removal is called directly: a signal would end the test process.
@Suite("interrupt cleanup")
struct InterruptCleanupTests {
    /// Creates `name` in `folder` as ``TemporaryFile`` does, and records it.
    static func owned(_ name: String, in folder: OpenFolder) throws -> InterruptCleanup.OwnedFile {
        let descriptor = try #require(try? folder.create(name).get())
        defer { close(descriptor) }
        return try #require(InterruptCleanup.OwnedFile(name: name, in: folder, descriptor: descriptor))
    }

    @Test("the file made is removed")
    func removesOwnFile() throws {
        try TestSupport.withTemporaryFolder { root in
            let folder = try OpenFolder(holding: root + "/out.csv")
            let file = try Self.owned(".out.csv.1.tmp", in: folder)
            defer { file.release() }
            #expect(file.removeIfUnchanged())
            #expect(!FileManager.default.fileExists(atPath: root + "/.out.csv.1.tmp"))
        }
    }

    @Test("a file swapped in at the name is left alone")
    func swappedFile() throws {
        try TestSupport.withTemporaryFolder { root in
            let folder = try OpenFolder(holding: root + "/out.csv")
            let file = try Self.owned(".out.csv.2.tmp", in: folder)
            defer { file.release() }
            let other = try TestSupport.makeFile(root, "other", contents: Data("someone else's".utf8))
            try #require(rename(other, root + "/.out.csv.2.tmp") == 0)
            #expect(!file.removeIfUnchanged())
            #expect(try Data(contentsOf: URL(fileURLWithPath: root + "/.out.csv.2.tmp")) == Data("someone else's".utf8))
        }
    }

    @Test("a folder swapped for a link: the file goes from the folder it was made in, the link's target is left alone")
    func swappedFolder() throws {
        try TestSupport.withTemporaryFolder { root in
            let made = root + "/out"
            try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: false)
            let folder = try OpenFolder(holding: made + "/out.csv")
            let file = try Self.owned(".out.csv.3.tmp", in: folder)
            defer { file.release() }
            // The folder moved away and a link planted at its path, to a folder with a file of that name.
            try #require(rename(made, root + "/moved") == 0)
            let victim = try TestSupport.makeFile(root, "victim/.out.csv.3.tmp", contents: Data("keep".utf8))
            try FileManager.default.createSymbolicLink(atPath: made, withDestinationPath: root + "/victim")
            #expect(file.removeIfUnchanged())
            #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == Data("keep".utf8))
            #expect(!FileManager.default.fileExists(atPath: root + "/moved/.out.csv.3.tmp"))
        }
    }
}
