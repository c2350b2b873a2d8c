import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKit
@testable import FaceKitArguments
@testable import FaceKitCLI

/// `facekit annotate` run in process.
@Suite("annotate command")
struct AnnotateCommandTests {
    static let crossing = TestData.repository.appendingPathComponent("TestVideos/crossing.mp4").path

    static func annotate(_ arguments: [String]) -> TestSupport.Run {
        TestSupport.run(["annotate", "--model-dir", TestSupport.modelDirectory ?? "/nonexistent"] + arguments)
    }

    @Test("with only boxes drawn, the copy differs from the input on the faces' boxes and nowhere else", .needsModels)
    func boxesOnly() throws {
        try TestSupport.withTemporaryFolder { folder in
            let run = Self.annotate(["--draw", "boxes", "--output", folder, TestSupport.astronaut])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdoutLines == [folder + "/astronaut.png"])
            let input = try FaceImage(contentsOfFile: TestSupport.astronaut)
            let output = try FaceImage(contentsOfFile: folder + "/astronaut.png")
            #expect(output.width == input.width && output.height == input.height)
            let faces = try FaceDetector(models: ModelLocator(directory: TestSupport.modelDirectory)).process(input)
            #expect(faces.count == 1)
            let style = AnnotationStyle(imageWidth: input.width, imageHeight: input.height)
            let before = try input.pixels()
            let after = try output.pixels()
            var changedInside = 0
            var changedOutside: [String] = []
            for y in 0..<input.height {
                for x in 0..<input.width {
                    let i = 3 * (y * input.width + x)
                    guard before[i..<i + 3] != after[i..<i + 3] else { continue }
                    let point = CGPoint(x: Double(x), y: Double(y))
                    // A line's half width and its outline, plus a pixel of antialiasing.
                    let inBox = faces.contains { face in
                        let width = style.lineWidth(forFaceWidth: face.frame.width)
                        return face.frame.insetBy(dx: -(width * 1.5 + 2), dy: -(width * 1.5 + 2)).contains(point)
                    }
                    if inBox { changedInside += 1 } else { changedOutside.append("(\(x), \(y))") }
                }
            }
            #expect(changedOutside.isEmpty, "changed outside every box: \(changedOutside.prefix(10))")
            #expect(changedInside > 4 * Int(faces[0].frame.width), "the box is drawn: \(changedInside) pixels")
        }
    }

    @Test("an annotated video keeps every frame, its size and its rate, with marks on the faces", .needsModels)
    func video() throws {
        try TestSupport.withTemporaryFolder { folder in
            let run = Self.annotate(["--classify", "--output", folder, Self.crossing])
            #expect(run.status == 0, "\(run.stderr)")
            let output = folder + "/crossing.mp4"
            #expect(run.stdoutLines == [output])
            let original = try VideoReader(contentsOfFile: Self.crossing)
            let annotated = try VideoReader(contentsOfFile: output)
            #expect(annotated.width == 640 && annotated.height == 360)
            #expect(abs(annotated.framesPerSecond - original.framesPerSecond) < 0.01)
            var frames = 0
            var differing = 0
            while let frame = try annotated.next(), let source = try original.next() {
                frames += 1
                guard frame.index % 25 == 0 else { continue }
                let a = try frame.image!.pixels(format: .gray8)
                let b = try source.image!.pixels(format: .gray8)
                if zip(a, b).filter({ abs(Int($0) - Int($1)) > 40 }).count > 200 { differing += 1 }
            }
            #expect(frames == 125)
            #expect(try original.next() == nil)
            #expect(differing == 5, "every sampled frame shows marks: \(differing) of 5")
            let entries = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(entries == ["crossing.mp4"], "no temporary file is left behind: \(entries)")
        }
    }

    /// The mean grey level of each frame of a video.
    static func meanLevels(_ path: String) throws -> [Double] {
        let video = try VideoReader(contentsOfFile: path)
        var levels: [Double] = []
        while let frame = try video.next() {
            let pixels = try frame.image!.pixels(format: .gray8)
            levels.append(Double(pixels.reduce(0) { $0 + Int($1) }) / Double(pixels.count))
        }
        return levels
    }

    @Test("--every, --start and --end choose a video's frames as for track; the copy holds them at a rate that keeps its speed", .needsModels)
    func frameSelection() throws {
        try TestSupport.withTemporaryFolder { folder in
            // 30 frames at 5 fps, frame n a flat grey of level 16 + 7n: each frame tells its number
            // (re-encoding shifts levels by 2 or 3, under half a step).
            let ramp = folder + "/ramp.mp4"
            try TestSupport.ffmpeg([
                "-f", "lavfi", "-i", "color=black:size=64x48:rate=5:duration=6", "-vf",
                "geq=lum='16+7*N':cb=128:cr=128", "-pix_fmt", "yuv420p", ramp,
            ])
            let out = folder + "/out"
            let run = Self.annotate(["--every", "2", "--start", "1", "--end", "5", "--output", out, ramp])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdoutLines == [out + "/ramp.mp4"])
            let copy = try VideoReader(contentsOfFile: out + "/ramp.mp4")
            #expect(abs(copy.framesPerSecond - 2.5) < 0.01, "5 fps / --every 2")
            let source = try Self.meanLevels(ramp)
            let written = try Self.meanLevels(out + "/ramp.mp4")
            let frames = written.map { level in source.indices.min { abs(source[$0] - level) < abs(source[$1] - level) }! }
            // Frame 5 is shown at 1 s; frame 25, at 5 s, is where --end stops.
            #expect(frames == Array(stride(from: 5, through: 23, by: 2)), "levels \(written) of \(source)")
        }
    }

    @Test("a --start after a video's last frame writes no copy and says so", .needsModels)
    func startAfterTheEnd() throws {
        try TestSupport.withTemporaryFolder { folder in
            let run = Self.annotate(["--start", "60", "--output", folder, Self.crossing])
            #expect(run.status == 1)
            #expect(run.stderrLines == ["facekit: \(Self.crossing): not annotated: none of its frames is shown from --start (60 s) on"])
            let entries = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(entries.isEmpty, "no copy and no temporary file: \(entries)")
        }
    }

    @Test("a video of 1 px frames is refused for its size, not for a codec, and leaves no file", .needsModels)
    func tooSmallVideo() throws {
        try TestSupport.withTemporaryFolder { folder in
            let out = folder + "/out"
            for (size, name) in [("1:1", "dot.mp4"), ("64:1", "line.webm")] {
                let input = folder + "/" + name
                try TestSupport.ffmpeg(["-i", Self.crossing, "-frames:v", "5", "-vf", "scale=\(size)", "-pix_fmt", "yuv444p", input])
                let run = Self.annotate(["--output", out, input])
                #expect(run.status == 1)
                let shown = size.replacingOccurrences(of: ":", with: "x")
                #expect(
                    run.stderrLines == [
                        "facekit: \(input): not annotated: its frames of \(shown) px are too small to write as video: "
                            + "the encoders keep colour at half resolution and need at least 2 px each way"
                    ])
                #expect(run.stdout.isEmpty)
            }
            let left = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
            #expect(left.isEmpty, "no copy and no temporary file: \(left)")
        }
    }

    @Test("missing and broken inputs get one line each naming them; the good one is still written", .needsModels)
    func badInputs() throws {
        try TestSupport.withTemporaryFolder { folder in
            let missing = folder + "/in/missing.jpg"
            let text = try TestSupport.makeFile(folder, "in/notes.jpg", contents: Data("not an image\n".utf8))
            let notVideo = try TestSupport.makeFile(folder, "in/clip.mp4", contents: Data("not a video\n".utf8))
            let jpeg = TestData.fixture("astronaut.jpg")
            let out = folder + "/out"
            let run = Self.annotate(["--quiet", "--output", out, missing, text, jpeg, notVideo])
            #expect(run.status == 1)
            #expect(run.stderrLines.count == 3, "\(run.stderrLines)")
            for (line, path) in zip(run.stderrLines, [missing, text, notVideo]) {
                #expect(line.hasPrefix("facekit: \(path): "), "\(line)")
            }
            #expect(run.stdoutLines == [out + "/astronaut.jpg"])
            let written = try Data(contentsOf: URL(fileURLWithPath: out + "/astronaut.jpg"))
            #expect(written.prefix(3) == Data([0xFF, 0xD8, 0xFF]), "a JPEG stays a JPEG")
            #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["astronaut.jpg"])
        }
    }

    @Test("each copy written gets a line on standard error with the faces drawn in it, unless --quiet", .needsModels)
    func facesDrawn() throws {
        try TestSupport.withTemporaryFolder { folder in
            let out = folder + "/out"
            let broken = try TestSupport.makeFile(folder, "broken.png", contents: Data("not an image".utf8))
            let run = Self.annotate(["--every", "25", "--output", out, TestSupport.astronaut, broken, Self.crossing])
            #expect(run.status == 1)
            // As many faces as track reports in the same frames (one row each).
            let track = TestSupport.run([
                "track", "--model-dir", TestSupport.modelDirectory ?? "/nonexistent", "--every", "25", Self.crossing,
            ])
            #expect(track.status == 0, "\(track.stderr)")
            let faces = track.stdoutLines.count - 1
            #expect(faces > 5, "\(track.stdout)")
            try #require(run.stderrLines.count == 3, "\(run.stderr)")
            #expect(run.stderrLines[0] == "facekit: \(out)/astronaut.png: 1 face drawn")
            #expect(run.stderrLines[1].hasPrefix("facekit: \(broken): not a readable image"), "a failure has no count")
            #expect(run.stderrLines[2] == "facekit: \(out)/crossing.mp4: 5 frames, \(faces) faces drawn")
            #expect(run.stdoutLines == [out + "/astronaut.png", out + "/crossing.mp4"])

            let quiet = Self.annotate(["--quiet", "--every", "25", "--output", out, TestSupport.astronaut, Self.crossing])
            #expect(quiet.status == 0)
            #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
            #expect(quiet.stdoutLines == run.stdoutLines)
        }
    }

    @Test("temporary files an earlier run left for the copies written are removed, and only those", .needsModels)
    func staleTemporaryFiles() throws {
        try TestSupport.withTemporaryFolder { out in
            let stale = [".crossing.mp4.123.tmp.mp4", ".crossing.mp4.4294967295.tmp.mp4", ".astronaut.png.7.tmp"]
            let kept = [
                ".crossing.mp4.12x.tmp.mp4", ".crossing.mp4.tmp.mp4", ".crossing.mp4.1.tmp", ".crossing.MP4.1.tmp.mp4",
                ".other.mp4.1.tmp.mp4", "x.crossing.mp4.1.tmp.mp4", ".crossing.mp4.1.tmp.mp4.part",
                ".astronaut.png.7.tmp.png",
            ]
            for name in stale + kept { try TestSupport.makeFile(out, name, contents: Data("left".utf8)) }
            // One that another run is still writing: it holds the lock.
            let live = ".crossing.mp4.55.tmp.mp4"
            let descriptor = open(out + "/" + live, O_WRONLY | O_CREAT, 0o644)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            try #require(flock(descriptor, LOCK_EX) == 0)
            let run = Self.annotate(["--quiet", "--every", "25", "--output", out, TestSupport.astronaut, Self.crossing])
            #expect(run.status == 0, "\(run.stderr)")
            let entries = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            #expect(entries == (kept + [live, "astronaut.png", "crossing.mp4"]).sorted())
        }
    }

    @Test("the list of files written escapes control characters, one line per file", .needsModels)
    func controlCharactersListed() throws {
        try TestSupport.withTemporaryFolder { folder in
            let input = try TestSupport.makeFile(folder, "in/a\nb.png", contents: TestSupport.astronautData())
            let out = folder + "/out"
            let run = Self.annotate(["--output", out, input])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdoutLines == [out + #"/a\x0Ab.png"#])
            #expect(FileManager.default.fileExists(atPath: out + "/a\nb.png"))
        }
    }

    @Test("contours with a video are refused as track refuses them, before anything is written")
    func contoursWithVideo() throws {
        try TestSupport.withTemporaryFolder { folder in
            for flags in [["--contours"], ["--draw", "boxes,contours"]] {
                let run = Self.annotate(flags + ["--output", folder, TestSupport.astronaut, Self.crossing])
                #expect(run.status == 64)
                let first = run.stderrLines.first ?? ""
                let flag = flags.count == 1 ? "--contours" : "--draw contours"
                #expect(first.hasPrefix("Error: '\(flag)' cannot be combined with tracking"), "\(first)")
                #expect(run.stderr.contains("Usage: facekit annotate"), "\(run.stderr)")
            }
            let entries = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(entries.isEmpty, "\(entries)")
        }
    }

    @Test(
        "option values that cannot be honoured are usage errors naming the option",
        arguments: [
            (["--draw", "boxes,hats"], "'--draw <marks>'"), (["--quality", "0"], "'--quality <1-100>'"),
            (["--output", ""], "'--output <folder>'"), (["--max-pixels", "0"], "'--max-pixels <n>'"),
            (["--min-face-size", "2"], "'--min-face-size <fraction>'"), (["--every", "0"], "'--every <n>'"),
            (["--start", "-1"], "'--start <seconds>'"), (["--start", "2", "--end", "1"], "'--end <seconds>'"),
        ])
    func usageErrors(arguments: [String], option: String) {
        let output = arguments.contains("--output") ? [] : ["--output", "/nonexistent/never-written"]
        let run = Self.annotate(arguments + output + [TestSupport.astronaut])
        #expect(run.status == 64)
        #expect(run.stderrLines.first?.hasPrefix("Error: ") == true && run.stderr.contains(option), "\(run.stderr)")
    }

    @Test("the output folder given again as an input, or a folder inside it, is a usage error: nothing would be annotated")
    func outputFolderAsInput() throws {
        try TestSupport.withTemporaryFolder { folder in
            let out = folder + "/out"
            let copy = try TestSupport.makeFile(out, "astronaut.png", contents: TestSupport.astronautData())
            try TestSupport.makeFile(out, "sub/b.png", contents: TestSupport.astronautData())
            try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: out)
            for (arguments, what) in [
                (["--output", out, out], "is the '--output <folder>' itself"),
                (["--output", out + "/", folder + "/link/."], "is the '--output <folder>' itself"),
                (["--output", out, TestSupport.astronaut, out + "/sub"], "is inside the '--output <folder>'"),
            ] {
                let run = Self.annotate(arguments)
                #expect(run.status == 64, "\(arguments): \(run.stderr)")
                let first = run.stderrLines.first ?? ""
                #expect(first.hasPrefix("Error: The input '\(arguments.last!)' \(what)"), "\(first)")
                #expect(first.hasSuffix("so nothing would be annotated"), "\(first)")
                #expect(run.stderr.contains("Usage: facekit annotate"), "\(run.stderr)")
                #expect(run.stdout.isEmpty)
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == TestSupport.astronautData())
            #expect(try FileManager.default.subpathsOfDirectory(atPath: out).sorted() == ["astronaut.png", "sub", "sub/b.png"])
        }
    }

    @Test("--output is required, and the usage line and help say so")
    func outputRequired() {
        let run = Self.annotate([TestSupport.astronaut])
        #expect(run.status == 64)
        #expect(
            run.stderrLines.prefix(2) == [
                "Error: Missing expected option '--output <folder>'",
                "Usage: facekit annotate [<options>] --output <folder> <input> ...",
            ], "\(run.stderr)")
        let help = TestSupport.run(["annotate", "--help"])
        #expect(help.stdout.contains("\nUSAGE: facekit annotate [<options>] --output <folder> <input> ...\n"), "\(help.stdout)")
    }

    @Test("--draw chooses the marks and turns on what they need; by default what is computed is drawn")
    func drawSelection() throws {
        let parser = CommandParser(root: FaceKitCommand.self)
        func command(_ arguments: [String]) throws -> AnnotateCommand {
            guard case .run(let command, _) = try parser.parse(["annotate", "--output", "o"] + arguments + ["a.jpg"]),
                let annotate = command as? AnnotateCommand
            else { throw CommandError("not an annotate command") }
            return annotate
        }
        #expect(try command([]).layers == [.boxes, .pose, .ids])
        #expect(try command(["--landmarks", "--classify"]).layers == [.boxes, .pose, .ids, .landmarks, .labels])
        let drawn = try command(["--draw", "landmarks,labels"])
        #expect(drawn.layers == [.landmarks, .labels])
        #expect(drawn.imageOptions.landmarkMode == .all && drawn.imageOptions.classificationMode == .all)
        #expect(drawn.imageOptions.contourMode == .none)
        #expect(try command(["--draw", "all"]).imageOptions.contourMode == .all)
        #expect(try command(["--draw", "all"]).videoOptions.isTrackingEnabled)
    }

    @Test(
        "an output that would replace an input, or a name written twice, is refused; inputs are untouched", .needsModels
    )
    func overwriting() throws {
        try TestSupport.withTemporaryFolder { folder in
            let input = try TestSupport.makeFile(folder, "astronaut.png", contents: TestSupport.astronautData())
            let other = try TestSupport.makeFile(folder, "b/astronaut.png", contents: TestSupport.astronautData())
            let run = Self.annotate(["--output", folder + "/.", input, TestSupport.astronaut])
            #expect(run.status == 1)
            #expect(run.stderrLines.count == 2, "\(run.stderrLines)")
            #expect(run.stderrLines.first?.contains("is the input itself") == true, "\(run.stderr)")
            #expect(run.stderrLines.last?.contains("is the input \(input)") == true, "\(run.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == TestSupport.astronautData())
            #expect(run.stdout.isEmpty)

            let twice = Self.annotate(["--quiet", "--output", folder + "/out", TestSupport.astronaut, other])
            #expect(twice.status == 1)
            #expect(
                twice.stderrLines == [
                    "facekit: \(other): not annotated: \(folder)/out/astronaut.png is already written for \(TestSupport.astronaut)"
                ])
            #expect(twice.stdoutLines == [folder + "/out/astronaut.png"])
        }
    }

    @Test("a folder's images keep their path below it; a name FaceKit cannot encode gets .jpg", .needsModels)
    func folders() throws {
        try TestSupport.withTemporaryFolder { folder in
            try TestSupport.makeFile(folder, "in/trip/a.png", contents: TestSupport.astronautData())
            try TestSupport.makeFile(
                folder, "in/b.webp",
                contents: Data(contentsOf: URL(fileURLWithPath: TestData.fixture("astronaut.webp"))))
            let bare = try TestSupport.makeFile(folder, "photo", contents: TestSupport.astronautData())
            let out = folder + "/out"
            let run = Self.annotate(["--output", out, folder + "/in", bare])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdoutLines == [out + "/b.webp", out + "/trip/a.png", out + "/photo.jpg"])
            for path in run.stdoutLines { #expect(try FaceImage(contentsOfFile: path).width == 512, "\(path)") }
            // Writing inside the folder searched: a second run does not take the first run's copies.
            let nested = Self.annotate(["--draw", "boxes", "--output", folder + "/in/annotated", folder + "/in"])
            #expect(nested.status == 0, "\(nested.stderr)")
            #expect(nested.stdoutLines.count == 2, "\(nested.stdoutLines)")
            let again = Self.annotate(["--draw", "boxes", "--output", folder + "/in/annotated", folder + "/in"])
            #expect(again.stdoutLines == nested.stdoutLines)
        }
    }

    @Test("a folder's videos are annotated too, keeping their path below it, and not taken again from the output", .needsModels)
    func folderOfVideos() throws {
        try TestSupport.withTemporaryFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/videos/day 1", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: folder + "/videos/day 1/a.mp4", withDestinationPath: Self.crossing)
            let out = folder + "/videos/ann"
            let run = Self.annotate(["--draw", "boxes", "--output", out, folder + "/videos"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdoutLines == [out + "/day 1/a.mp4"])
            let original = try VideoReader(contentsOfFile: Self.crossing)
            let annotated = try VideoReader(contentsOfFile: out + "/day 1/a.mp4")
            #expect(annotated.width == original.width && annotated.height == original.height)
            // Run again into the same folder inside the one searched: its copy is not an input.
            let again = Self.annotate(["--draw", "boxes", "--output", out, folder + "/videos"])
            #expect(again.stdoutLines == run.stdoutLines, "\(again.stderr)")
        }
    }
}
