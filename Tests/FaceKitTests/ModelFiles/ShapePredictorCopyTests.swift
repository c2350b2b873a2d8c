import Foundation
import Testing
import FaceKitTestSupport

@testable import FaceKit

/// The 68-point model's flat copy in the model cache (`ModelCache`, `model_cache.hpp`): the same
/// points as the model, never trusted when it is not the model's, one per model content.
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

    /// The flat copies in the cache `folder` of models named `model`.
    private static func copies(in folder: String, of model: String = "shape_predictor_68_face_landmarks") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(model + "-") && $0.hasSuffix(".flat") }
            .sorted()
    }

    @Test("written once, then read instead of the model, with the same points", .needsSharedData)
    func sameAsTheModel() throws {
        let image = try FaceImage(contentsOfFile: TestData.shared("photos/face_recognition/obama.jpg"))
        let model = try ModelLocator(directory: TestData.models).path(for: .landmarks68)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try Self.points(NativeShapePredictor(modelPath: model), image)

        let writing = try NativeShapePredictor(modelPath: model, cacheFolder: folder.path)
        let copies = try Self.copies(in: folder.path)
        try #require(copies.count == 1, "\(copies)")
        let copy = folder.appendingPathComponent(copies[0]).path
        let written = try Data(contentsOf: URL(fileURLWithPath: copy))
        #expect(written.count > 60_000_000, "the copy holds the leaves: \(written.count) bytes")
        #expect(try Self.points(writing, image) == expected)
        let modified = try FileManager.default.attributesOfItem(atPath: copy)[.modificationDate] as? Date

        let reading = try NativeShapePredictor(modelPath: model, cacheFolder: folder.path)
        #expect(try Self.points(reading, image) == expected)
        let after = try FileManager.default.attributesOfItem(atPath: copy)[.modificationDate] as? Date
        #expect(after == modified, "a sound copy was written again instead of read")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                == [copies[0], "shape_predictor_68_face_landmarks.index"], "a partial file was left")
    }

    /// The copy's header: magic (8 bytes), byte order, float size, checksum, the model's checksum,
    /// dims and level count (48 bytes in all); then 15 levels' counts (24 bytes each) and the
    /// 136-float initial shape.
    private static let headerBytes = 48, firstSplit = 48 + 15 * 24 + 136 * 4

    @Test("a damaged, truncated, altered or other version's copy is read past and replaced", .needsSharedData)
    func untrustedCopies() throws {
        let image = try FaceImage(contentsOfFile: TestData.shared("photos/face_recognition/obama.jpg"))
        let model = try ModelLocator(directory: TestData.models).path(for: .landmarks68)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try Self.points(NativeShapePredictor(modelPath: model), image)
        _ = try NativeShapePredictor(modelPath: model, cacheFolder: folder.path)
        let copy = folder.appendingPathComponent(try #require(Self.copies(in: folder.path).first))
        let good = try Data(contentsOf: copy)

        func changed(_ change: (inout Data) -> Void) -> Data {
            var data = good
            change(&data)
            return data
        }
        let damaged: [(String, Data)] = [
            // The first split's pixel index made to point far outside the pixels.
            ("an index out of range", changed { $0.replaceSubrange(Self.firstSplit..<Self.firstSplit + 4, with: [0xFF, 0xFF, 0xFF, 0x7F]) }),
            ("half the file", good.prefix(good.count / 2)), ("all but the last byte", good.dropLast()),
            ("a byte more", good + [0]), ("no bytes", Data()), ("the header only", good.prefix(Self.headerBytes)),
            ("a count too large", changed { $0[Self.headerBytes + 8] = 0xFF }),
            ("a leaf's bit flipped", changed { $0[$0.count / 2] ^= 0x10 }),
            ("another model's checksum", changed { $0[32] ^= 1 }), ("its own checksum altered", changed { $0[20] ^= 1 }),
            ("the format before (version 2)", changed { $0[7] = UInt8(ascii: "2") }),
            ("another byte order", changed { $0[8] ^= 0xFF }),
        ]
        for (what, bytes) in damaged {
            try bytes.write(to: copy)
            let predictor = try NativeShapePredictor(modelPath: model, cacheFolder: folder.path)
            #expect(try Self.points(predictor, image) == expected, "\(what)")
            #expect(try Data(contentsOf: copy) == good, "\(what): the copy was not replaced")
        }
    }

    /// The names a planted link may stand at: the copy's own and the index's.
    @Test(
        "a link planted at the copy's or the index's name is never written through", .needsSharedData,
        arguments: ["copy", "index"])
    func plantedLink(at name: String) throws {
        let image = try FaceImage(contentsOfFile: TestData.shared("photos/face_recognition/obama.jpg"))
        let model = try ModelLocator(directory: TestData.models).path(for: .landmarks68)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The copy's name, from a first cache.
        let first = folder.appendingPathComponent("first").path
        try FileManager.default.createDirectory(atPath: first, withIntermediateDirectories: false)
        _ = try NativeShapePredictor(modelPath: model, cacheFolder: first)
        let copyName = try #require(Self.copies(in: first).first)
        let cache = folder.appendingPathComponent("cache").path
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: false)
        let copy = cache + "/" + copyName
        let outside = folder.appendingPathComponent("outside.txt").path
        try "keep\n".write(toFile: outside, atomically: false, encoding: .utf8)
        let planted = name == "copy" ? copy : cache + "/shape_predictor_68_face_landmarks.index"
        try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: outside)

        let expected = try Self.points(NativeShapePredictor(modelPath: model), image)
        #expect(try Self.points(NativeShapePredictor(modelPath: model, cacheFolder: cache), image) == expected)
        #expect(try Data(contentsOf: URL(fileURLWithPath: outside)) == Data("keep\n".utf8), "written through the link")
        for path in [copy, cache + "/shape_predictor_68_face_landmarks.index"] {
            var info = stat()
            #expect(lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG, "\(path) is not a regular file")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "a temporary file was left: \(left)")
    }

    @Test(
        "a model file changed in place gets a new copy and its old one goes; a moved one keeps its copy",
        .needsSharedData)
    func changedModel() throws {
        let image = try FaceImage(contentsOfFile: TestData.shared("photos/face_recognition/obama.jpg"))
        let original = try ModelLocator(directory: TestData.models).path(for: .landmarks68)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache").path
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: false)
        let model = folder.appendingPathComponent("model.dat").path
        try FileManager.default.copyItem(atPath: original, toPath: model)
        let expected = try Self.points(NativeShapePredictor(modelPath: model, cacheFolder: cache), image)
        let first = try Self.copies(in: cache, of: "model")
        try #require(first.count == 1, "\(first)")

        // Touched, then moved: the same content, the same copy, not written again.
        let written = try FileManager.default.attributesOfItem(atPath: cache + "/" + first[0])[.modificationDate] as? Date
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: model)
        let moved = folder.appendingPathComponent("moved").path
        try FileManager.default.createDirectory(atPath: moved, withIntermediateDirectories: false)
        try FileManager.default.moveItem(atPath: model, toPath: moved + "/model.dat")
        #expect(try Self.points(NativeShapePredictor(modelPath: moved + "/model.dat", cacheFolder: cache), image) == expected)
        #expect(try Self.copies(in: cache, of: "model") == first)
        let after = try FileManager.default.attributesOfItem(atPath: cache + "/" + first[0])[.modificationDate] as? Date
        #expect(after == written, "the copy of the same content was written again")

        // A byte appended in place (dlib reads past it): another content, its own copy, and the
        // old content's copy removed, as no remembered file holds it.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: moved + "/model.dat"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        #expect(try Self.points(NativeShapePredictor(modelPath: moved + "/model.dat", cacheFolder: cache), image) == expected)
        let second = try Self.copies(in: cache, of: "model")
        #expect(second.count == 1 && second != first, "\(first) then \(second)")
    }

    @Test("copies of many model contents: only the newest two are kept", .needsSharedData)
    func boundedContents() throws {
        let original = try ModelLocator(directory: TestData.models).path(for: .landmarks68)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache").path
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: false)
        // Three model files of three contents (dlib reads past the bytes appended).
        for index in 0..<3 {
            let model = folder.appendingPathComponent("model-\(index)").path
            try FileManager.default.createDirectory(atPath: model, withIntermediateDirectories: false)
            var data = try Data(contentsOf: URL(fileURLWithPath: original))
            data.append(contentsOf: [UInt8](repeating: 1, count: index))
            try data.write(to: URL(fileURLWithPath: model + "/landmarks.dat"))
            _ = try NativeShapePredictor(modelPath: model + "/landmarks.dat", cacheFolder: cache)
        }
        #expect(try Self.copies(in: cache, of: "landmarks").count == 2)
    }

    @Test("the cache's folder is made when asked for, in the folder chosen; none when copies are off")
    func madeFolder() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ModelCache(folder: folder.appendingPathComponent("deeper/facekit").path)
        #expect(cache.madeFolder() == folder.path + "/deeper/facekit")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/deeper/facekit"))
        #expect(ModelCache(folder: nil).madeFolder() == nil)
    }

    @Test("the folder is made below HOME or XDG_CACHE_HOME's parent, never a missing HOME, and copies are then off")
    func folderMadeBelowItsRoot() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.path
        let home = ModelCache.standard(environment: ["HOME": root + "/home"])
        try FileManager.default.createDirectory(atPath: root + "/home", withIntermediateDirectories: false)
        #expect(home.madeFolder() == root + "/home/.cache/facekit")
        var info = stat()
        #expect(stat(root + "/home/.cache/facekit", &info) == 0 && info.st_mode & 0o777 == 0o700)

        let missing = ModelCache.standard(environment: ["HOME": root + "/missing/home"])
        #expect(missing.folder == root + "/missing/home/.cache/facekit")
        #expect(missing.madeFolder() == nil)
        #expect(!FileManager.default.fileExists(atPath: root + "/missing"))

        let xdg = ModelCache.standard(environment: ["XDG_CACHE_HOME": root + "/xdg/", "HOME": root + "/missing"])
        #expect(xdg.madeFolder() == root + "/xdg/facekit")
        let xdgMissing = ModelCache.standard(environment: ["XDG_CACHE_HOME": root + "/gone/cache"])
        #expect(xdgMissing.madeFolder() == nil)
        #expect(!FileManager.default.fileExists(atPath: root + "/gone"))

        let chosen = ModelCache.standard(environment: ["FACEKIT_CACHE_DIR": root + "/chosen/deeper", "HOME": root + "/missing"])
        #expect(chosen.madeFolder() == root + "/chosen/deeper")
        #expect(ModelCache.standard(environment: ["FACEKIT_CACHE_DIR": "", "HOME": root + "/home"]).folder == nil)
    }
}
