import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitCLI

/// `facekit report` replacing its `--output` folder whole (issues 54 and 55): an interrupted run
/// leaves the earlier report as it was, and a folder holding anything else is refused.
@Suite("report: its output folder replaced whole")
struct ReportFolderTests {
    static let header = "source,frame,timestamp_ms,face,tracking_id,x,y,width,height\n"

    /// A table of `count` photos in `folder/photos`, hard links of the astronaut, one face each.
    static func table(in folder: String, name: String, count: Int) throws -> String {
        let photo = folder + "/photos/0.png"
        if !FileManager.default.fileExists(atPath: photo) {
            try TestSupport.makeFile(folder, "photos/0.png", contents: TestSupport.astronautData())
        }
        var text = header
        for index in 0..<count {
            let copy = folder + "/photos/\(index).png"
            if !FileManager.default.fileExists(atPath: copy) { try FileManager.default.linkItem(atPath: photo, toPath: copy) }
            text += copy + ",,,0,,181.08,65.27,89.39,110.72\n"
        }
        let table = folder + "/" + name
        try text.write(toFile: table, atomically: true, encoding: .utf8)
        return table
    }

    /// Every file below `folder` with its bytes.
    static func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder))
        while let relative = enumerator.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue {
                files[relative] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + relative))
            }
        }
        return files
    }

    static func hiddenFolders(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".site.") }
    }

    @Test(
        "report into an earlier report's folder, interrupted, leaves the earlier report whole; a rerun removes the unfinished one",
        .enabled(if: TestSupport.executable != nil, "the facekit executable was not found next to the test bundle"))
    func interruptedOverEarlierReport() throws {
        try TestSupport.withTemporaryFolder { folder in
            let site = folder + "/site"
            let small = try Self.table(in: folder, name: "small.csv", count: 2)
            #expect(TestSupport.run(["report", "--output", site, small]).status == 0)
            let before = try Self.snapshot(site)
            try #require(before["images/photo-1.jpg"] != nil)
            let large = try Self.table(in: folder, name: "large.csv", count: 2000)

            let process = Process()
            process.executableURL = URL(fileURLWithPath: try #require(TestSupport.executable))
            process.arguments = ["report", "--jobs", "1", "--output", site, large]
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try TestSupport.runWithSignalsUnblocked(process)
            func picturesBuilt() -> Int {
                Self.hiddenFolders(in: folder).map {
                    ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + $0 + "/images")) ?? []).count
                }.reduce(0, +)
            }
            let deadline = ContinuousClock.now + .seconds(60)
            while picturesBuilt() < 4, process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
            try #require(process.isRunning && picturesBuilt() >= 4, "the new report is built beside the old one")
            kill(process.processIdentifier, SIGINT)
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)
            #expect(stderr.contains("facekit: interrupted; \(site) is as it was (an earlier report there is untouched)"), "\(stderr)")
            #expect(try Self.snapshot(site) == before, "every page and picture of the earlier report as it was")
            #expect(Self.hiddenFolders(in: folder).count == 1, "the unfinished report, under its hidden name")

            let again = TestSupport.run(["report", "--output", site, small])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(Self.hiddenFolders(in: folder) == [], "the unfinished report is removed")
            #expect(try Set(Self.snapshot(site).keys) == Set(before.keys))
            #expect(try ReportFixture.brokenLinks(in: site) == [])
        }
    }

    @Test("A rerun replaces the report whole: pictures of the earlier, larger one do not stay")
    func rerunReplacesWhole() throws {
        try TestSupport.withTemporaryFolder { folder in
            let site = folder + "/site"
            let three = try Self.table(in: folder, name: "three.csv", count: 3)
            let one = try Self.table(in: folder, name: "one.csv", count: 1)
            #expect(TestSupport.run(["report", "--output", site + "/", three]).status == 0)
            #expect(FileManager.default.fileExists(atPath: site + "/images/photo-2.jpg"))
            let run = TestSupport.run(["report", "--output", site, one])
            #expect(run.status == 0 && run.stdout == site + "/index.html\n", "\(run.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: site + "/images").sorted() == ["full-0.jpg", "photo-0.jpg"])
            #expect(Self.hiddenFolders(in: folder) == [])
        }
    }

    @Test("A folder holding anything but a report is refused before any work, and left as it was")
    func strangerRefused() throws {
        try TestSupport.withTemporaryFolder { folder in
            let table = try Self.table(in: folder, name: "faces.csv", count: 1)
            let before = try Self.snapshot(folder + "/photos")
            let run = TestSupport.run(["report", "--output", folder + "/photos", table])
            #expect(run.status != 0)
            #expect(run.stderr.contains("\(folder)/photos: holds 0.png, which is not part of a report"), "\(run.stderr)")
            #expect(try Self.snapshot(folder + "/photos") == before)
            // A report with a file added into images/, or a link there, is no longer only a report.
            let site = folder + "/site"
            #expect(TestSupport.run(["report", "--output", site, table]).status == 0)
            try FileManager.default.createSymbolicLink(atPath: site + "/images/photo-7.jpg", withDestinationPath: "/etc/passwd")
            let linked = TestSupport.run(["report", "--output", site, table])
            #expect(linked.stderr.contains("holds images/photo-7.jpg (a symbolic link), which is not part of a report"), "\(linked.stderr)")
            try FileManager.default.removeItem(atPath: site + "/images/photo-7.jpg")
            // An empty folder, and FaceKit's own temporary files, are fine.
            try TestSupport.makeFile(site, ".index.html.1234.tmp")
            try FileManager.default.createDirectory(atPath: folder + "/empty", withIntermediateDirectories: false)
            #expect(TestSupport.run(["report", "--output", site, table]).status == 0)
            #expect(TestSupport.run(["report", "--output", folder + "/empty", table]).status == 0)
        }
    }

    @Test("Names: a report's pictures and pages, FaceKit's temporary names, the hidden building folder")
    func names() {
        #expect(ReportFolder.isNumbered("person-3-12.jpg", prefixes: ["person"], ending: ".jpg"))
        #expect(!ReportFolder.isNumbered("person-.jpg", prefixes: ["person"], ending: ".jpg"))
        #expect(!ReportFolder.isNumbered("person-best.jpg", prefixes: ["person"], ending: ".jpg"))
        #expect(ReportFolder.isHiddenNumbered(".photo-1.jpg.123456.tmp"))
        #expect(!ReportFolder.isHiddenNumbered(".photo-1.jpg.12a.tmp") && !ReportFolder.isHiddenNumbered("a.1.tmp"))
        #expect(ReportFolder.isInsideBuildingFolder("/data/.site.42.tmp/images/photo-0.jpg", target: "/data/site"))
        #expect(!ReportFolder.isInsideBuildingFolder("/data/.site.x.tmp/images/photo-0.jpg", target: "/data/site"))
        #expect(!ReportFolder.isInsideBuildingFolder("/data/.other.42.tmp/photo.jpg", target: "/data/site"))
    }
}
