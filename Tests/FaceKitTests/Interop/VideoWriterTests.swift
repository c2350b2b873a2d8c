import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKit

@Suite("VideoWriter")
struct VideoWriterTests {
    /// A frame whose brightness encodes its index, so that frames are told apart after coding.
    static func frame(_ index: Int, width: Int = 160, height: Int = 120) throws -> FaceImage {
        let bytes = [UInt8](repeating: UInt8(20 + 7 * (index % 30)), count: width * height * 3)
        return try bytes.withUnsafeBytes {
            try FaceImage(pixels: $0, width: width, height: height, bytesPerRow: width * 3, format: .rgb8)
        }
    }

    static func withFolder<T>(_ body: (String) throws -> T) throws -> T {
        let folder = NSTemporaryDirectory() + "facekit-video-writer-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try body(folder)
    }

    @Test("a writer on a descriptor writes that file, though a link replaced its folder's path after it was made")
    func descriptorOutlivesItsPath() throws {
        try Self.withFolder { root in
            let files = FileManager.default
            let folder = root + "/out", elsewhere = root + "/elsewhere"
            try files.createDirectory(atPath: folder, withIntermediateDirectories: false)
            try files.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
            let descriptor = open(folder + "/clip.mp4", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            // The folder swapped for a link to another, as annotate's output folder could be
            // between its check and the video's writing.
            try files.moveItem(atPath: folder, toPath: root + "/moved")
            try files.createSymbolicLink(atPath: folder, withDestinationPath: elsewhere)
            let writer = try VideoWriter(
                descriptor: descriptor, path: folder + "/clip.mp4", framesPerSecond: 25, width: 160, height: 120)
            for index in 0..<10 { try writer.write(Self.frame(index)) }
            try writer.finish()
            #expect(try files.contentsOfDirectory(atPath: elsewhere).isEmpty)
            let video = try VideoReader(contentsOfFile: root + "/moved/clip.mp4")
            var frames = 0
            while try video.next() != nil { frames += 1 }
            #expect(frames == 10)
        }
    }

    @Test(
        "every frame is written at the size and rate given, and read back by VideoReader",
        arguments: [
            ("mp4", VideoWriter.defaultCodecs), ("mov", VideoWriter.defaultCodecs),
            ("mkv", VideoWriter.defaultCodecs), ("avi", VideoWriter.defaultCodecs),
            ("webm", VideoWriter.webMCodecs),
        ])
    func roundTrip(container: String, codecs: [String]) throws {
        try Self.withFolder { folder in
            let path = folder + "/clip." + container
            let writer = try VideoWriter(path: path, framesPerSecond: 25, width: 160, height: 120, codecs: codecs)
            for index in 0..<30 { try writer.write(Self.frame(index)) }
            try writer.finish()
            try writer.finish()
            #expect(writer.frameCount == 30)
            #expect(writer.codec == codecs[0], "this FFmpeg encodes \(codecs[0])")
            let video = try VideoReader(contentsOfFile: path)
            #expect(video.width == 160 && video.height == 120)
            #expect(abs(video.framesPerSecond - 25) < 0.01)
            var brightness: [Int] = []
            while let frame = try video.next() { brightness.append(Int(try frame.image!.pixels(format: .gray8)[6000])) }
            #expect(brightness.count == 30)
            #expect(zip(brightness, (0..<30).map { 20 + 7 * $0 }).allSatisfy { abs($0 - $1) <= 6 }, "\(brightness)")
        }
    }

    @Test("a codec FFmpeg cannot use falls back to the next one")
    func fallback() throws {
        try Self.withFolder { folder in
            let writer = try VideoWriter(
                path: folder + "/clip.mp4", framesPerSecond: 10, width: 64, height: 48, codecs: ["zzzz", "mp4v"])
            #expect(writer.codec == "mp4v")
            try writer.write(Self.frame(0, width: 64, height: 48))
            try writer.finish()
        }
    }

    @Test("a file that cannot be created is an unwritable file, with the system's reason")
    func unwritable() throws {
        try Self.withFolder { folder in
            let missing = folder + "/missing/clip.mp4"
            #expect {
                try VideoWriter(path: missing, framesPerSecond: 25, width: 64, height: 48)
            } throws: { error in
                (error as? FaceKitError)
                    == .unwritableFile(path: missing, reason: "cannot create the file: No such file or directory")
            }
            try FileManager.default.createDirectory(atPath: folder + "/taken.mp4", withIntermediateDirectories: false)
            #expect {
                try VideoWriter(path: folder + "/taken.mp4", framesPerSecond: 25, width: 64, height: 48)
            } throws: { error in
                guard case .unwritableFile(_, let reason) = error as? FaceKitError else { return false }
                return reason.contains("it is a folder") && !"\(error)".contains("internal error")
            }
        }
    }

    @Test("a symbolic link at the path is refused, and the file it points to keeps its content")
    func linkAtPath() throws {
        try Self.withFolder { folder in
            let outside = folder + "/outside.txt"
            try "keep\n".write(toFile: outside, atomically: false, encoding: .utf8)
            let link = folder + "/clip.mp4"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
            #expect {
                let writer = try VideoWriter(path: link, framesPerSecond: 25, width: 64, height: 48)
                try writer.write(Self.frame(0, width: 64, height: 48))
                try writer.finish()
            } throws: { error in
                guard case .unwritableFile(_, let reason) = error as? FaceKitError else { return false }
                return reason.contains("symbolic link")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: outside)) == Data("keep\n".utf8))
        }
    }

    @Test("frames narrower or lower than 2 px are refused for their size, and leave no file")
    func tooSmall() throws {
        try Self.withFolder { folder in
            for (width, height) in [(1, 1), (1, 48), (64, 1)] {
                #expect {
                    try VideoWriter(path: folder + "/tiny.mp4", framesPerSecond: 25, width: width, height: height)
                } throws: { error in
                    (error as? FaceKitError)?.description
                        == "invalid option width: frames of \(width)x\(height) px are too small to write as video: "
                        + "the encoders keep colour at half resolution and need at least 2 px each way"
                }
            }
            #expect(!FileManager.default.fileExists(atPath: folder + "/tiny.mp4"))
            let smallest = try VideoWriter(path: folder + "/tiny.mp4", framesPerSecond: 25, width: 2, height: 2)
            #expect(smallest.width == 2)
        }
    }

    @Test("a frame of another size, a folder that does not exist and bad values are refused")
    func refusals() throws {
        try Self.withFolder { folder in
            let writer = try VideoWriter(path: folder + "/clip.mp4", framesPerSecond: 25, width: 64, height: 48)
            #expect(throws: FaceKitError.self) { try writer.write(Self.frame(0)) }
            #expect {
                try VideoWriter(path: folder + "/missing/clip.mp4", framesPerSecond: 25, width: 64, height: 48)
            } throws: { error in
                "\(error)".contains("No such file or directory")
            }
            #expect(!FileManager.default.fileExists(atPath: folder + "/bad.mp4"))
            #expect(throws: FaceKitError.self) {
                try VideoWriter(path: folder + "/bad.mp4", framesPerSecond: 0, width: 64, height: 48)
            }
            #expect(throws: FaceKitError.self) {
                try VideoWriter(path: folder + "/bad.mp4", framesPerSecond: 25, width: 64, height: 48, codecs: ["zzzz"])
            }
            #expect(!FileManager.default.fileExists(atPath: folder + "/bad.mp4"), "a failed writer leaves no file")
        }
    }
}
