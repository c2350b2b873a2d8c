import Foundation
import Testing
import FaceKitTestSupport

@testable import FaceKit

/// The 68-point model's flat copy (`ModelCache`): the same points as the model, and never trusted
/// when it is not the model's.
@Suite("The shape predictor's flat copy")
struct ShapePredictorCopyTests {
    /// obama.jpg's face and two boxes off it: points from all over the model.
    private static let boxes = [
        CGRect(x: 349, y: 142, width: 269, height: 268), CGRect(x: 10, y: 20, width: 120, height: 130),
        CGRect(x: 400, y: 500, width: 60, height: 60),
    ]

    private static func points(_ predictor: NativeShapePredictor, _ image: FaceImage) throws -> [[CGPoint]] {
        try predictor.points(in: image, boxes: boxes)
    }

    private static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flat-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("written once, then read instead of the model, with the same points", .needsSharedData)
    func sameAsTheModel() throws {
        let image = try FaceImage(contentsOfFile: TestData.shared("photos/face_recognition/obama.jpg"))
        let model = try ModelLocator(directory: TestData.models).path(for: .landmarks68)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("landmarks.flat").path
        let expected = try Self.points(NativeShapePredictor(modelPath: model), image)

        let writing = try NativeShapePredictor(modelPath: model, copyPath: copy)
        let written = try Data(contentsOf: URL(fileURLWithPath: copy))
        #expect(written.count > 60_000_000, "the copy holds the leaves: \(written.count) bytes")
        #expect(try Self.points(writing, image) == expected)
        let modified = try FileManager.default.attributesOfItem(atPath: copy)[.modificationDate] as? Date

        let reading = try NativeShapePredictor(modelPath: model, copyPath: copy)
        #expect(try Self.points(reading, image) == expected)
        let after = try FileManager.default.attributesOfItem(atPath: copy)[.modificationDate] as? Date
        #expect(after == modified, "a current copy was written again instead of read")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["landmarks.flat"], "a partial file was left")
    }

    @Test("a damaged, truncated or foreign copy is read past and replaced", .needsSharedData)
    func untrustedCopies() throws {
        let image = try FaceImage(contentsOfFile: TestData.shared("photos/face_recognition/obama.jpg"))
        let model = try ModelLocator(directory: TestData.models).path(for: .landmarks68)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("landmarks.flat")
        let expected = try Self.points(NativeShapePredictor(modelPath: model), image)
        _ = try NativeShapePredictor(modelPath: model, copyPath: copy.path)
        let good = try Data(contentsOf: copy)

        // The header (72 bytes), 15 levels' counts (24 bytes each), the 136-float initial shape:
        // then the first split's pixel index, here made to point far outside the pixels.
        var hostile = good
        let firstSplit = 72 + 15 * 24 + 136 * 4
        hostile.replaceSubrange(firstSplit..<firstSplit + 4, with: [0xFF, 0xFF, 0xFF, 0x7F])
        let damaged: [(String, Data)] = [
            ("an index out of range", hostile), ("half the file", good.prefix(good.count / 2)),
            ("a count too large", { var data = good; data[72 + 8] = 0xFF; return data }()), ("no bytes", Data()),
            ("another file's header", { var data = good; data[20] ^= 1; return data }()),
        ]
        for (what, bytes) in damaged {
            try bytes.write(to: copy)
            let predictor = try NativeShapePredictor(modelPath: model, copyPath: copy.path)
            #expect(try Self.points(predictor, image) == expected, "\(what)")
            #expect(try Data(contentsOf: copy) == good, "\(what): the copy was not replaced")
        }
    }

    /// The names a planted link may stand at: the copy's own, and the partial file's as it was
    /// once named, `<copy>.partial-<pid>`, which anyone could predict.
    @Test(
        "a link planted at the copy's name or at a predictable partial name is never written through",
        .needsSharedData, arguments: ["copy", "partial"])
    func plantedLink(at name: String) throws {
        let image = try FaceImage(contentsOfFile: TestData.shared("photos/face_recognition/obama.jpg"))
        let model = try ModelLocator(directory: TestData.models).path(for: .landmarks68)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: false)
        let copy = cache.appendingPathComponent("landmarks.flat").path
        let outside = folder.appendingPathComponent("outside.txt").path
        try "keep\n".write(toFile: outside, atomically: false, encoding: .utf8)
        let planted = name == "copy" ? copy : copy + ".partial-\(getpid())"
        try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: outside)

        let expected = try Self.points(NativeShapePredictor(modelPath: model), image)
        #expect(try Self.points(NativeShapePredictor(modelPath: model, copyPath: copy), image) == expected)
        #expect(try Data(contentsOf: URL(fileURLWithPath: outside)) == Data("keep\n".utf8), "written through the link")
        var info = stat()
        #expect(lstat(copy, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG, "the copy is not a regular file")
        #expect(info.st_size > 60_000_000, "the copy holds the leaves: \(info.st_size) bytes")
        let left = try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { !$0.hasPrefix("landmarks.flat.partial-") }
        #expect(left == ["landmarks.flat"], "a temporary file was left: \(left)")
    }

    @Test("a changed model file gets a new copy", .needsSharedData)
    func changedModel() throws {
        let image = try FaceImage(contentsOfFile: TestData.shared("photos/face_recognition/obama.jpg"))
        let original = try ModelLocator(directory: TestData.models).path(for: .landmarks68)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("model.dat").path
        let copy = folder.appendingPathComponent("landmarks.flat")
        try FileManager.default.copyItem(atPath: original, toPath: model)
        let expected = try Self.points(NativeShapePredictor(modelPath: model, copyPath: copy.path), image)
        let first = try Data(contentsOf: copy)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: model)
        #expect(try Self.points(NativeShapePredictor(modelPath: model, copyPath: copy.path), image) == expected)
        let second = try Data(contentsOf: copy)
        #expect(first.count == second.count && first != second, "the copy still names the model as it was")
    }

    @Test("copies are named after the model and kept in the folder chosen")
    func naming() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ModelCache(folder: folder.appendingPathComponent("deeper/facekit").path)
        let one = try #require(cache.copyPath(forModelAt: "/models/a/shape_predictor_68_face_landmarks.dat"))
        let other = try #require(cache.copyPath(forModelAt: "/models/b/shape_predictor_68_face_landmarks.dat"))
        #expect(one.hasPrefix(folder.path + "/deeper/facekit/shape_predictor_68_face_landmarks-"))
        #expect(one.hasSuffix(".flat") && one != other)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/deeper/facekit"))
        #expect(ModelCache(folder: nil).copyPath(forModelAt: "/models/a.dat") == nil)
    }

    @Test("the folder is made below HOME or XDG_CACHE_HOME's parent, never a missing HOME, and copies are then off")
    func folderMadeBelowItsRoot() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.path
        let model = "/models/shape_predictor_68_face_landmarks.dat"
        let home = ModelCache.standard(environment: ["HOME": root + "/home"])
        try FileManager.default.createDirectory(atPath: root + "/home", withIntermediateDirectories: false)
        #expect(home.copyPath(forModelAt: model)?.hasPrefix(root + "/home/.cache/facekit/") == true)
        var info = stat()
        #expect(stat(root + "/home/.cache/facekit", &info) == 0 && info.st_mode & 0o777 == 0o700)

        let missing = ModelCache.standard(environment: ["HOME": root + "/missing/home"])
        #expect(missing.folder == root + "/missing/home/.cache/facekit")
        #expect(missing.copyPath(forModelAt: model) == nil)
        #expect(!FileManager.default.fileExists(atPath: root + "/missing"))

        let xdg = ModelCache.standard(environment: ["XDG_CACHE_HOME": root + "/xdg/", "HOME": root + "/missing"])
        #expect(xdg.copyPath(forModelAt: model)?.hasPrefix(root + "/xdg/facekit/") == true)
        let xdgMissing = ModelCache.standard(environment: ["XDG_CACHE_HOME": root + "/gone/cache"])
        #expect(xdgMissing.copyPath(forModelAt: model) == nil)
        #expect(!FileManager.default.fileExists(atPath: root + "/gone"))

        let chosen = ModelCache.standard(environment: ["FACEKIT_CACHE_DIR": root + "/chosen/deeper", "HOME": root + "/missing"])
        #expect(chosen.copyPath(forModelAt: model)?.hasPrefix(root + "/chosen/deeper/") == true)
        #expect(ModelCache.standard(environment: ["FACEKIT_CACHE_DIR": "", "HOME": root + "/home"]).folder == nil)
    }
}
