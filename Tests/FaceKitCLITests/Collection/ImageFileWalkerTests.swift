import FaceKit
import Foundation
import Testing
import FaceKitTestSupport

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

    @Test("a folder sorts as if its name ended in a slash, so the walk order is the byte order of full paths")
    func folderSortsWithSlash() throws {
        try TestSupport.withTemporaryFolder { root in
            let names = [
                "b/x.jpg", "b.jpg", "b0.jpg", "b-c.jpg", "b/a/y.png", "b/a.png", "b/a-z.png", "B.png", "a b.jpg",
                "a.b/c.jpg", "a/b.jpg", "é.jpg", "e.jpg", "z/z/z/z.png",
            ]
            for name in names { try TestSupport.makeFile(root, name) }
            let walked = ImageFileWalker.expand(root).map(\.path)
            #expect(
                walked == [
                    "\(root)/B.png", "\(root)/a b.jpg", "\(root)/a.b/c.jpg", "\(root)/a/b.jpg", "\(root)/b-c.jpg",
                    "\(root)/b.jpg", "\(root)/b/a-z.png", "\(root)/b/a.png", "\(root)/b/a/y.png", "\(root)/b/x.jpg",
                    "\(root)/b0.jpg", "\(root)/e.jpg", "\(root)/z/z/z/z.png", "\(root)/é.jpg",
                ])
            #expect(walked == walked.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        }
    }

    @Test("a name that is not UTF-8 is kept byte for byte and sorted by its bytes")
    func nonUTF8Names() throws {
        try TestSupport.withTemporaryFolder { root in
            let names: [[UInt8]] = [TestSupport.latin1Name, Array("café.png".utf8), Array("cafe.png".utf8)]
            for name in names { try TestSupport.makeFile(root, nameBytes: name, contents: Data()) }
            let walked = ImageFileWalker.expand(root).map { FilePathEncoding.pathBytes($0.path) }
            #expect(walked == names.reversed().map { Array(root.utf8) + [UInt8(ascii: "/")] + $0 })
        }
    }

    @Test("a folder whose path is longer than PATH_MAX is reported at its place, not skipped")
    func pathTooLong() throws {
        try TestSupport.withTemporaryFolder { root in
            try TestSupport.makeFile(root, "a.png")
            try TestSupport.makeFile(root, "z.png")
            let deep = try DeepFolderFixture(root: root, contents: Data())
            defer { deep.remove() }
            #expect(
                ImageFileWalker.expand(root) == [
                    .file(root + "/a.png"),
                    .unreadableFolder(path: deep.firstTooLong, reason: "File name too long"),
                    .file(root + "/z.png"),
                ])
        }
    }

    @Test("a random tree walks in the order of its sorted paths, the same every time")
    func randomTreeOrder() throws {
        var generator = SplitMix(seed: 5)
        let parts = ["a", "b", "a.b", "a-b", "a0", "b.c", "A", "_"]
        try TestSupport.withTemporaryFolder { root in
            var files: Set<String> = []
            for _ in 0..<120 {
                let depth = Int(generator.next() % 4)
                let folders = (0..<depth).map { _ in parts[Int(generator.next() % UInt64(parts.count))] + "d" }
                let name =
                    parts[Int(generator.next() % UInt64(parts.count))]
                    + [".jpg", ".png", ".txt"][Int(generator.next() % 3)]
                let path = (folders + [name]).joined(separator: "/")
                if (try? TestSupport.makeFile(root, path)) != nil, ImageFileWalker.isImageFileName(name) {
                    files.insert(root + "/" + path)
                }
            }
            let walked = ImageFileWalker.expand(root).map(\.path)
            #expect(walked == files.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            #expect(ImageFileWalker.expand(root).map(\.path) == walked)
        }
    }

    @Test("paths are walked in the order given, each folder after the one before")
    func severalPaths() throws {
        try TestSupport.withTemporaryFolder { root in
            try TestSupport.makeFile(root, "z/a.png")
            try TestSupport.makeFile(root, "a/b.png")
            let walked = ImageFileWalker(paths: [root + "/z", "loose.txt", root + "/a"]).map(\.path)
            #expect(walked == [root + "/z/a.png", "loose.txt", root + "/a/b.png"])
        }
    }

    @Test("a folder is listed only when the walk reaches it, so the walk streams")
    func streams() throws {
        try TestSupport.withTemporaryFolder { root in
            try TestSupport.makeFile(root, "a/1.png")
            try TestSupport.makeFile(root, "b/1.png")
            var walk = ImageFileWalker(paths: [root]).makeIterator()
            #expect(walk.next() == .file(root + "/a/1.png"))
            // Folder b was seen when the root was listed, but not yet listed itself.
            try TestSupport.makeFile(root, "b/0.png")
            try TestSupport.makeFile(root, "c.png")
            #expect(walk.next() == .file(root + "/b/0.png"))
            #expect(walk.next() == .file(root + "/b/1.png"))
            #expect(walk.next() == nil, "the root was listed before c.png was made")
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
