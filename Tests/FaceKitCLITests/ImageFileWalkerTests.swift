import Foundation
import Testing

@testable import FaceKitCLI

@Suite("ImageFileWalker")
struct ImageFileWalkerTests {
    @Test(
        "image files are recognised by extension, case-insensitively",
        arguments: [
            ("a.jpg", true), ("a.JPG", true), ("a.jpeg", true), ("a.jpe", true), ("a.png", true), ("a.Bmp", true),
            ("a.dib", true), ("a.tif", true), ("a.TIFF", true), ("a.webp", true), ("dir.png/a.gif", false),
            ("a.gif", false), ("a.txt", false), ("jpg", false), (".png", false), ("a.", false), ("a.jpg.txt", false),
            ("x/y/photo.tar.png", true),
        ])
    func extensions(name: String, isImage: Bool) {
        #expect(ImageFileWalker.isImageFileName(name) == isImage)
    }

    @Test("a path that is not a folder is returned as given, whatever its name")
    func plainPaths() {
        #expect(ImageFileWalker.expand("/nonexistent/x.txt") == [.file("/nonexistent/x.txt")])
        #expect(ImageFileWalker.expand("notes.txt") == [.file("notes.txt")])
    }

    @Test("a folder yields its image files recursively, sorted by path, skipping other files")
    func walkOrder() throws {
        try TestSupport.withTemporaryFolder { root in
            for name in [
                "b.png", "a.JPG", "notes.txt", "sub/z.webp", "sub/c.tif", "sub/deeper/a.bmp", "a/x.jpeg", "a.jpg.bak",
                ".hidden/h.png", "sub/readme",
            ] {
                try TestSupport.makeFile(root, name)
            }
            let files = ImageFileWalker.expand(root).map(\.path)
            #expect(
                files == [
                    "\(root)/.hidden/h.png", "\(root)/a.JPG", "\(root)/a/x.jpeg", "\(root)/b.png",
                    "\(root)/sub/c.tif", "\(root)/sub/deeper/a.bmp", "\(root)/sub/z.webp",
                ])
            // A trailing slash is not doubled.
            #expect(ImageFileWalker.expand(root + "/").first?.path == "\(root)/.hidden/h.png")
        }
    }

    @Test("symbolic links to folders are followed but never in a loop")
    func symlinkLoops() throws {
        try TestSupport.withTemporaryFolder { root in
            try TestSupport.makeFile(root, "photos/a.png")
            try TestSupport.makeFile(root, "other/b.png")
            try FileManager.default.createSymbolicLink(
                atPath: root + "/photos/loop", withDestinationPath: root + "/photos")
            try FileManager.default.createSymbolicLink(atPath: root + "/photos/up", withDestinationPath: root)
            try FileManager.default.createSymbolicLink(
                atPath: root + "/photos/link.png", withDestinationPath: root + "/other/b.png")
            let files = ImageFileWalker.expand(root + "/photos").map(\.path)
            #expect(files.count == 3, "\(files)")
            #expect(files.first == root + "/photos/a.png")
            #expect(files.contains(root + "/photos/link.png"))
            #expect(files.contains(root + "/photos/up/other/b.png"))
        }
    }

    @Test("an unreadable subfolder is reported and the rest still walked")
    func unreadableFolder() throws {
        guard getuid() != 0 else { return }  // root reads every folder
        try TestSupport.withTemporaryFolder { root in
            try TestSupport.makeFile(root, "a.png")
            try TestSupport.makeFile(root, "locked/b.png")
            chmod(root + "/locked", 0)
            defer { chmod(root + "/locked", 0o755) }
            let entries = ImageFileWalker.expand(root)
            #expect(entries.count == 2)
            #expect(entries.first == .file(root + "/a.png"))
            #expect(entries.last?.failureDescription?.hasPrefix(root + "/locked: cannot read folder: ") == true)
        }
    }
}
