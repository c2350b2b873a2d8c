import FaceKit
import FaceKitArguments
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The face pictures of `facekit group`: with `--crops`, `crops/person-<id>.jpg`, each person's
/// best shot; with `--all-crops`, also `crops/face-<n>.jpg` for the face of row n (0-based) of
/// faces.csv. Each is an upright square (``FaceImage/faceChip(of:size:padding:)``), cut from the
/// source again: a photo is decoded once for all its crops, a video read once, decoding only the
/// frames that hold one.
struct GroupCrops {
    static let folderName = "crops"
    static let size = 150

    /// Which files each face gives, by its index among the grouped faces.
    let names: [Int: [String]]

    init(summaries: [PersonSummary], faceCount: Int, all: Bool) {
        var names: [Int: [String]] = [:]
        if all { for index in 0..<faceCount { names[index, default: []].append("face-\(index).jpg") } }
        for summary in summaries { names[summary.best, default: []].append("person-\(summary.id).jpg") }
        self.names = names
    }

    /// Writes every crop into `folder`/crops, returning a message for each source that could not
    /// be read again (its crops are missing).
    func write(faces: [GroupedFace], into folder: GroupOutputFolder, maxPixels: Int) throws -> [String] {
        let crops = try folder.makeFolder(Self.folderName)
        // By source and kind: JSON Lines may give one file's faces with a frame on one line and
        // without on another, which are a video's frames and a photo's face respectively.
        struct Source: Hashable {
            var path: String
            var isVideo: Bool
        }
        var bySource: [Source: [Int]] = [:]
        var order: [Source] = []
        for index in names.keys.sorted() {
            let source = Source(path: faces[index].record.source, isVideo: faces[index].isVideo)
            if bySource[source] == nil { order.append(source) }
            bySource[source, default: []].append(index)
        }
        var failures: [String] = []
        for source in order {
            let indices = bySource[source]!
            do {
                if source.isVideo {
                    try cropVideo(source.path, indices, faces: faces, into: crops, maxPixels: maxPixels)
                } else {
                    let image = try FaceImage(contentsOfFile: source.path, maxPixels: maxPixels)
                    for index in indices { try save(image, faces[index].record.face, index, into: crops) }
                }
            } catch let error as FaceKitError {
                failures.append("\(error.description) (its face crops are missing)")
            }
        }
        return failures
    }

    private func cropVideo(
        _ path: String, _ indices: [Int], faces: [GroupedFace], into crops: String, maxPixels: Int
    ) throws {
        var byFrame: [Int: [Int]] = [:]
        for index in indices {
            if let frame = faces[index].record.frame { byFrame[frame, default: []].append(index) }
        }
        guard let last = byFrame.keys.max() else { return }
        let video = try VideoReader(contentsOfFile: path, maxPixels: maxPixels)
        while video.lastIndex < last {
            guard let frame = try video.next(decode: byFrame[video.lastIndex + 1] != nil) else { break }
            guard let wanted = byFrame[frame.index], let image = frame.image else { continue }
            for index in wanted { try save(image, faces[index].record.face, index, into: crops) }
        }
    }

    /// Whether `name` is one FaceKit gives a crop: `person-<id>.jpg` or `face-<n>.jpg`.
    static func isCropName(_ name: String) -> Bool {
        for prefix in ["person-", "face-"] where name.hasPrefix(prefix) && name.hasSuffix(".jpg") {
            let number = name.dropFirst(prefix.count).dropLast(4)
            return !number.isEmpty && number.count <= 18 && number.allSatisfy { ("0"..."9").contains($0) }
        }
        return false
    }

    /// Removes the crops an earlier run wrote into `folder`/crops: files named as FaceKit names
    /// crops (``isCropName(_:)``), which belong to that run's faces.csv and people.csv and would
    /// show other people beside this run's (`person-5.jpg` someone else). Every other file there
    /// is the user's and stays; `crops/` itself is removed when that leaves it empty. A `crops`
    /// that is not a folder (a link, a file) is left alone: writing crops refuses it.
    static func removeEarlier(from folder: GroupOutputFolder) {
        let crops = folder.file(folderName)
        guard let info = (try? OpenFolder(holding: crops)).flatMap({ $0.status(of: folderName) }),
            (info.st_mode & S_IFMT) == S_IFDIR, let inside = try? OpenFolder(holding: crops + "/" + "person-0.jpg")
        else { return }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: crops)) ?? []
        for name in names where isCropName(name) {
            guard let entry = inside.status(of: name), (entry.st_mode & S_IFMT) == S_IFREG || (entry.st_mode & S_IFMT) == S_IFLNK
            else { continue }
            inside.remove(name)
        }
        if ((try? FileManager.default.contentsOfDirectory(atPath: crops)) ?? ["?"]).isEmpty {
            _ = FilePathEncoding.withFileSystemRepresentation(crops) { rmdir($0) }
        }
    }

    private func save(_ image: FaceImage, _ face: Face, _ index: Int, into crops: String) throws {
        let bytes = try image.faceChip(of: face, size: Self.size).encoded(fileExtension: "jpg")
        for name in names[index] ?? [] {
            let output = try OutputFile(path: crops + "/" + name, specialFiles: .refused)
            output.write(bytes: Array(bytes)[...])
            try output.commit()
        }
    }
}
