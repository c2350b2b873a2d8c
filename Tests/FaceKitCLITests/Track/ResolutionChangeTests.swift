import FaceKit
import FaceKitTestSupport
import Foundation
import Testing

/// A stream whose resolution changes on the way (legal in MPEG-TS, as broadcast and adaptive
/// streams do it) is new geometry, not damage: each frame is read and analysed at its own size,
/// the change is a new shot for the tracker, and the run exits 0. Issue 55's reproducer: two
/// pieces of crossing.mp4 at 320x240 and 480x360, each made an MPEG-TS by ffmpeg, joined by
/// concatenation; it was "frames 49 to 98 decoded with errors", its frames scaled back to 320x240,
/// and exit 1.
@Suite(
    "a stream whose resolution changes", .needsModels,
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "ffmpeg is not installed: run scripts/setup"))
struct ResolutionChangeTests {
    /// crossing.mp4's first 2 s at 320x240, then its next 2 s at 480x360, as one MPEG-TS.
    static func twoResolutions(in folder: String) throws -> String {
        let small = folder + "/small.ts", large = folder + "/large.ts", joined = folder + "/joined.ts"
        try TestSupport.ffmpeg(["-i", TrackCommandTests.crossing, "-t", "2", "-s", "320x240", "-an", "-f", "mpegts", small])
        try TestSupport.ffmpeg([
            "-ss", "2", "-i", TrackCommandTests.crossing, "-t", "2", "-s", "480x360", "-an", "-f", "mpegts", large,
        ])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: small)) + Data(contentsOf: URL(fileURLWithPath: large))
        try bytes.write(to: URL(fileURLWithPath: joined))
        return joined
    }

    /// Each frame's size, as the reader gives it, by frame index.
    static func frameSizes(_ path: String) throws -> (sizes: [(width: Int, height: Int)], reader: VideoReader) {
        let video = try VideoReader(contentsOfFile: path)
        var sizes: [(width: Int, height: Int)] = []
        while let frame = try video.next() {
            let image = try #require(frame.image)
            sizes.append((image.width, image.height))
        }
        return (sizes, video)
    }

    @Test("the reader gives each frame at its own size, 320x240 then 480x360, and no damage")
    func readerSizes() throws {
        try TestSupport.withTemporaryFolder { folder in
            let (sizes, video) = try Self.frameSizes(try Self.twoResolutions(in: folder))
            #expect(video.width == 320 && video.height == 240, "the stream's size as it opens")
            let first = sizes.prefix { $0 == (320, 240) }.count
            #expect(first >= 45 && first <= 51, "\(first) frames at 320x240")
            #expect(sizes.dropFirst(first).allSatisfy { $0 == (480, 360) }, "then every frame at 480x360")
            #expect(sizes.count - first >= 45, "\(sizes.count - first) frames at 480x360")
            #expect(video.damage == nil, "a resolution change is not damage: \(String(describing: video.damage))")
            #expect(!video.endedEarly)
        }
    }

    @Test("track: exit 0, every row at its frame's size, faces found at both sizes and re-identified across the change")
    func track() throws {
        try TestSupport.withTemporaryFolder { folder in
            let stream = try Self.twoResolutions(in: folder)
            let (sizes, _) = try Self.frameSizes(stream)
            let run = TrackCommandTests.track(["--quiet", stream])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(!run.stderr.contains("decoded with errors"), "\(run.stderr)")
            let header = try #require(run.stdoutLines.first).split(separator: ",").map(String.init)
            func column(_ name: String) throws -> Int { try #require(header.firstIndex(of: name), "no \(name) column") }
            let (frameAt, statusAt, idAt) = (try column("frame"), try column("status"), try column("tracking_id"))
            let (xAt, yAt, widthAt, heightAt) = (try column("x"), try column("y"), try column("width"), try column("height"))
            let (imageWidthAt, imageHeightAt) = (try column("image_width"), try column("image_height"))
            let rows = TrackCommandTests.allRows(run)
            #expect(!rows.contains { $0[statusAt] == "failed" }, "no failed row")
            #expect(Set(rows.compactMap { Int($0[frameAt]) }) == Set(sizes.indices), "a row for every frame")
            var ids: [Bool: Set<String>] = [:]
            for row in rows {
                let frame = try #require(Int(row[frameAt]))
                let size = sizes[frame]
                #expect(row[imageWidthAt] == "\(size.width)" && row[imageHeightAt] == "\(size.height)", "frame \(frame): \(row)")
                guard row[statusAt] == "detected" || row[statusAt] == "followed" else { continue }
                let x = try #require(Double(row[xAt])), y = try #require(Double(row[yAt]))
                let w = try #require(Double(row[widthAt])), h = try #require(Double(row[heightAt]))
                // The box's centre lies in its own frame, at its own size.
                #expect(x + w / 2 > 0 && x + w / 2 < Double(size.width) && y + h / 2 > 0 && y + h / 2 < Double(size.height),
                        "frame \(frame) (\(size.width)x\(size.height)): box \(x), \(y), \(w), \(h)")
                ids[size.width == 480, default: []].insert(row[idAt])
            }
            #expect(ids[false] == ["0", "1"], "the two faces at 320x240: \(ids)")
            // The change is a new shot: the faces are taken up again by their appearance.
            #expect(ids[true] == ["0", "1"], "the same two people at 480x360: \(ids)")
        }
    }

    @Test("annotate: exit 0, every frame in the copy at the stream's first size")
    func annotate() throws {
        try TestSupport.withTemporaryFolder { folder in
            // annotate takes a file as a video by its extension, and .ts is not one (it names
            // TypeScript as often): the same stream, copied into Matroska, changes size as well.
            let stream = folder + "/joined.mkv"
            try TestSupport.ffmpeg(["-i", try Self.twoResolutions(in: folder), "-c", "copy", stream])
            let (sizes, _) = try Self.frameSizes(stream)
            try #require(Set(sizes.map(\.width)) == [320, 480], "the copy into Matroska keeps both sizes")
            let run = AnnotateCommandTests.annotate(["--quiet", "--output", folder + "/out", stream])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(!run.stderr.contains("decoded with errors"), "\(run.stderr)")
            let (copied, _) = try Self.frameSizes(folder + "/out/joined.mkv")
            #expect(copied.count == sizes.count, "every frame written")
            #expect(copied.allSatisfy { $0 == (320, 240) }, "a video file has one size: \(Set(copied.map { "\($0.width)x\($0.height)" }))")
        }
    }
}
