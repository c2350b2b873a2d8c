import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

#if canImport(Glibc)
    import Glibc
#endif

/// A symbolic link someone placed inside an output folder (`out/images -> /elsewhere`, or a
/// copy's name linked to a file outside): report, group and annotate refuse it by name and write
/// nothing through it.
@Suite("symbolic links inside an output folder")
struct OutputFolderLinkTests {
    /// `root/out` with `out/<link>` a symbolic link to the new folder `root/elsewhere`, and
    /// `out/<fileLink>` a link to `root/outside.txt`, which holds "keep\n". Returns out, elsewhere, outside.
    static func linkedFolder(_ root: String, link: String, fileLink: String? = nil) throws
        -> (out: String, elsewhere: String, outside: String)
    {
        let out = root + "/out"
        let elsewhere = root + "/elsewhere"
        let outside = root + "/outside.txt"
        let files = FileManager.default
        try files.createDirectory(atPath: (out + "/" + link as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try files.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try files.createSymbolicLink(atPath: out + "/" + link, withDestinationPath: elsewhere)
        try "keep\n".write(toFile: outside, atomically: false, encoding: .utf8)
        if let fileLink { try files.createSymbolicLink(atPath: out + "/" + fileLink, withDestinationPath: outside) }
        return (out, elsewhere, outside)
    }

    /// Expects nothing written through the links: `elsewhere` empty, `outside` as it was, both still links.
    static func expectUntouched(
        _ paths: (out: String, elsewhere: String, outside: String), links: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(try FileManager.default.contentsOfDirectory(atPath: paths.elsewhere).isEmpty, sourceLocation: sourceLocation)
        #expect(try String(contentsOfFile: paths.outside, encoding: .utf8) == "keep\n", sourceLocation: sourceLocation)
        for link in links {
            #expect(SpecialFileTests.fileType(paths.out + "/" + link) == S_IFLNK, sourceLocation: sourceLocation)
        }
    }

    static let refusal = "cannot write output: a symbolic link inside the output folder"

    @Test("OutputFolder makes the folders on the way and refuses a link or a file among them")
    func outputFolder() throws {
        try TestSupport.withTemporaryFolder { root in
            let paths = try Self.linkedFolder(root, link: "a/images", fileLink: "page.html")
            let folder = try OutputFolder(paths.out)
            #expect(try folder.makeFolders(for: "trip/day 1/b.jpg") == paths.out + "/trip/day 1/b.jpg")
            #expect(SpecialFileTests.fileType(paths.out + "/trip/day 1") == S_IFDIR)
            #expect(throws: OutputError("\(paths.out)/a/images: \(Self.refusal) \(paths.out), which could lead out of it; "
                + "FaceKit does not write through links it did not make: remove the link or choose another folder")) {
                try folder.makeFolders(for: "a/images/c.jpg")
            }
            try TestSupport.makeFile(paths.out, "plain")
            #expect(throws: OutputError("\(paths.out)/plain: cannot make folder: it is a file, not a folder")) {
                try folder.makeFolders(for: "plain/x/c.jpg")
            }
            // The file itself: refused as a link where FaceKit names it, replaced (not followed)
            // where the user did.
            #expect(throws: OutputError.self) { try OutputFile(path: paths.out + "/page.html", specialFiles: .refused) }
            #expect(try OutputTarget(path: paths.out + "/page.html") == .file(path: paths.out + "/page.html"))
            try Self.expectUntouched(paths, links: ["a/images", "page.html"])
            // The output folder itself may be a link: the user named it.
            try FileManager.default.createSymbolicLink(atPath: root + "/named", withDestinationPath: paths.out)
            #expect(try OutputFolder(root + "/named").makeFolders(for: "d/e.jpg") == root + "/named/d/e.jpg")
            #expect(SpecialFileTests.fileType(paths.out + "/d") == S_IFDIR)
        }
    }

    @Test("report refuses images/ linked out of its folder, and a page linked to a file", .needsModels)
    func report() throws {
        try TestSupport.withTemporaryFolder { root in
            let table = root + "/faces.csv"
            try TestSupport.analyze([TestSupport.astronaut]).stdout.write(toFile: table, atomically: false, encoding: .utf8)
            var paths = try Self.linkedFolder(root + "/1", link: "images")
            var run = TestSupport.run(["report", "--output", paths.out, table])
            #expect(run.status == 1)
            // report replaces its folder whole, and so refuses one holding anything but a report (ReportFolder).
            #expect(run.stderr.contains("\(paths.out): holds images (a symbolic link), which is not part of a report"), "\(run.stderr)")
            try Self.expectUntouched(paths, links: ["images"])
            paths = try Self.linkedFolder(root + "/2", link: "unused", fileLink: "index.html")
            run = TestSupport.run(["report", "--output", paths.out, table])
            #expect(run.status == 1)
            #expect(run.stderr.contains("\(paths.out): holds index.html (a symbolic link), which is not part of a report"), "\(run.stderr)")
            try Self.expectUntouched(paths, links: ["index.html"])
        }
    }

    @Test("group refuses crops/ linked out of its folder, and faces.csv linked to a file", .needsModels)
    func group() throws {
        try TestSupport.withTemporaryFolder { root in
            var paths = try Self.linkedFolder(root + "/1", link: "crops")
            var run = GroupCommandTests.group(["--output", paths.out, "--crops", TestSupport.astronaut])
            #expect(run.status == 1)
            #expect(run.stderr.contains("\(paths.out)/crops: \(Self.refusal)"), "\(run.stderr)")
            try Self.expectUntouched(paths, links: ["crops"])
            paths = try Self.linkedFolder(root + "/2", link: "other", fileLink: "faces.csv")
            run = GroupCommandTests.group(["--output", paths.out, TestSupport.astronaut])
            #expect(run.status == 1)
            #expect(run.stderr.contains("\(paths.out)/faces.csv: \(Self.refusal)"), "\(run.stderr)")
            try Self.expectUntouched(paths, links: ["faces.csv"])
        }
    }

    @Test("annotate refuses a folder of the copied tree linked out of its folder, and a copy linked to a file", .needsModels)
    func annotate() throws {
        try TestSupport.withTemporaryFolder { root in
            let photos = root + "/photos"
            try TestSupport.makeFile(photos, "trip/a.png", contents: TestSupport.astronautData())
            try TestSupport.makeFile(photos, "b.png", contents: TestSupport.astronautData())
            let paths = try Self.linkedFolder(root, link: "trip", fileLink: "b.png")
            let run = AnnotateCommandTests.annotate(["--output", paths.out, photos])
            #expect(run.status == 1)
            #expect(run.stderr.contains("\(photos)/trip/a.png: not annotated: \(paths.out)/trip: \(Self.refusal)"), "\(run.stderr)")
            #expect(run.stderr.contains("\(photos)/b.png: not annotated: \(paths.out)/b.png: \(Self.refusal)"), "\(run.stderr)")
            try Self.expectUntouched(paths, links: ["trip", "b.png"])
        }
    }
}
