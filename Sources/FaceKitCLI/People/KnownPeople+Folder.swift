import FaceKit
import FaceKitArguments
import Foundation

/// The people of a `--known` folder (``KnownPeople``, in FaceKit): the layout face_recognition
/// users already have, one folder per person (`DIR/<name>/*.jpg`) or one image per person
/// (`DIR/<name>.jpg`).
///
/// Each reference image must hold exactly one face: one with none or several, or that cannot be
/// read, is named in a warning and skipped.
///
/// ```
/// known/
///   Ada Lovelace/portrait.jpg
///   Ada Lovelace/1840.png
///   Charles Babbage.jpg
/// ```
extension KnownPeople {
    /// Reads `directory`. A missing or empty folder, or one in which no reference image could be
    /// used, is a usage error (``CommandError``); each skipped image is reported on `warnings`.
    init(directory: String, tolerance: Double, detector: FaceDetector, warnings: any TextOutput) throws {
        precondition(detector.options.descriptorMode == .all, "KnownPeople: the detector must compute descriptors")
        let (references, skipped) = try Self.referenceImages(in: directory, notes: warnings)
        for entry in skipped { warnings.writeDiagnostic("\(entry.path): skipped in '--known': \(entry.reason)") }
        var people: [Person] = []
        for (name, paths) in references {
            // A name as messages show it: they escape its bytes again themselves.
            let shown = FilePathEncoding.string(fromPathBytes: FilePathEncoding.pathBytes(fromText: name))
            var descriptors: [FaceDescriptor] = []
            for path in paths {
                switch Self.descriptor(of: path, detector: detector) {
                case .success(let descriptor): descriptors.append(descriptor)
                case .failure(let problem):
                    warnings.writeDiagnostic("\(path): skipped as a reference image of \(shown): \(problem.description)")
                }
            }
            if descriptors.isEmpty {
                warnings.writeDiagnostic("\(shown): no usable reference image in '\(directory)'; this person cannot be named")
            } else {
                people.append(Person(name: name, descriptors: descriptors))
            }
        }
        guard !people.isEmpty else {
            throw CommandError(
                "Invalid '--known \(directory)': none of its images could be used as a reference (one face each is needed)")
        }
        self.init(people: people, tolerance: tolerance)
    }

    // MARK: - Reading the folder

    /// An entry of the folder that names no one, and why.
    struct SkippedEntry: Equatable {
        var path: String
        var reason: String
    }

    /// Person name -> image paths, in name order: sub-folders (their images, not recursive) and
    /// images directly in `directory` (named by their file name without extension); and the
    /// entries that name no one (hidden ones, folders without an image or that cannot be read),
    /// to be said, not silently dropped. Other files (a notes.txt) are passed over, as a photo
    /// walk does.
    ///
    /// Names are read byte for byte (``ImageFileWalker/FolderListing``), so a folder named in
    /// Latin-1 is a person too; since a name is written into tables and pages as text, it is the
    /// text ``FilePathEncoding`` makes of those bytes (`Jos\xE9` for a Latin-1 `José`), which
    /// a note on `notes` says.
    static func referenceImages(in directory: String, notes: (any TextOutput)? = nil) throws(CommandError)
        -> (people: [(name: String, paths: [String])], skipped: [SkippedEntry])
    {
        var info = stat()
        guard FilePathEncoding.withFileSystemRepresentation(directory, { stat($0, &info) }) == 0 else {
            throw CommandError("Invalid '--known \(directory)': no such folder")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw CommandError(
                "Invalid '--known \(directory)': a file, not a folder; give the folder that holds one folder "
                    + "or one image per person")
        }
        guard case .success(let listing) = ImageFileWalker.FolderListing.read(directory) else {
            throw CommandError("Invalid '--known \(directory)': the folder cannot be read")
        }
        var byName: [String: [String]] = [:]
        var skipped: [SkippedEntry] = []
        func add(_ bytesName: String, path: String, _ paths: [String]) {
            let name = FilePathEncoding.text(bytesName)
            if String(validating: FilePathEncoding.pathBytes(bytesName), as: UTF8.self) == nil {
                // Messages escape the raw bytes themselves: the name as given shows as the text.
                notes?.writeDiagnostic("\(path): a name that is not UTF-8; this person is named '\(bytesName)'")
            }
            byName[name, default: []] += paths
        }
        for child in listing.children {
            let path = listing.prefix + child.name
            if child.name.hasPrefix(".") {
                skipped.append(SkippedEntry(path: path, reason: "a hidden name (starting with '.') names no one"))
                continue
            }
            switch child.kind {
            case .file:
                add((child.name as NSString).deletingPathExtension, path: path, [path])
            case .folder:
                switch ImageFileWalker.FolderListing.read(path) {
                case .success(let inside):
                    let images = inside.children.filter { child in
                        guard case .file = child.kind else { return false }
                        return !child.name.hasPrefix(".")
                    }
                    if images.isEmpty {
                        skipped.append(
                            SkippedEntry(path: path, reason: "the folder holds no image, so \(child.name) cannot be named"))
                    } else {
                        add(child.name, path: path, images.map { inside.prefix + $0.name })
                    }
                case .failure(let failure):
                    skipped.append(SkippedEntry(path: path, reason: "cannot read folder: \(systemErrorMessage(failure.code))"))
                }
            case .unreadableFolder(let code):
                skipped.append(SkippedEntry(path: path, reason: "cannot read folder: \(systemErrorMessage(code))"))
            }
        }
        guard !byName.isEmpty else {
            throw CommandError(
                "Invalid '--known \(directory)': it holds no images; put one folder per person (DIR/<name>/*.jpg) "
                    + "or one image per person (DIR/<name>.jpg)")
        }
        return (byName.keys.sorted().map { ($0, byName[$0]!) }, skipped)
    }

    /// The descriptor of the one face in the image at `path`.
    static func descriptor(of path: String, detector: FaceDetector) -> Result<FaceDescriptor, ReferenceProblem> {
        Result { () throws(ReferenceProblem) in try referenceDescriptor(ofContentsOfFile: path, detector: detector) }
    }
}
