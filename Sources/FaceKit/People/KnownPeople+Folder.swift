import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder of known people: the layout face_recognition users already have, one folder of
/// photos per person (`DIR/<name>/*.jpg`) or one photo per person (`DIR/<name>.jpg`), each
/// photo showing that person's face alone. `facekit --known DIR` reads it with
/// ``read(folder:detector:tolerance:)-25b7g``.
///
/// ```
/// known/
///   Ada Lovelace/portrait.jpg
///   Ada Lovelace/1840.png
///   Charles Babbage.jpg
/// ```
extension KnownPeople {
    /// Reads the folder of known people at `folder` (see the extension's description): the
    /// people, and notes on what was passed over, in the order met.
    ///
    /// A person is named after their folder, or after their photo's file name without its
    /// extension. A reference photo with no face, several, or that cannot be read or described is
    /// skipped with a note (``FolderNote``), and so is a hidden entry (a name starting with `.`), a
    /// folder with no image, and a person none of whose photos could be used; other files (a
    /// `notes.txt`) are passed over quietly. Sub-folders of a person's folder are not read. The
    /// photos are read in name order, one after the other, on the caller's thread: the `async`
    /// variant runs off it and can be cancelled.
    ///
    /// A name that is not UTF-8 (a folder named in Latin-1) is a person too, named with the text
    /// FaceKit writes such bytes as (`Jos\xE9` for a Latin-1 `José`), with a note.
    ///
    /// - Parameters:
    ///   - folder: the folder of known people.
    ///   - detector: finds the one face of each photo; it must compute descriptors
    ///     (`descriptorMode = .all`).
    ///   - tolerance: ``tolerance`` of the people read.
    /// - Throws: ``FolderError`` when the folder is missing, not a folder, cannot be read, holds
    ///   no image, or none of its photos could be used.
    ///
    /// ```swift
    /// var options = FaceDetectorOptions()
    /// options.descriptorMode = .all
    /// let detector = try FaceDetector(options: options)
    /// let (known, notes) = try KnownPeople.read(folder: "known", detector: detector)
    /// for note in notes { print(note) }   // known/Nobody: skipped: the folder holds no image ...
    /// print(known.names)                  // ["Ada Lovelace", "Charles Babbage"]
    /// ```
    public static func read(folder: String, detector: FaceDetector, tolerance: Double = KnownPeople.defaultTolerance)
        throws(FolderError) -> (people: KnownPeople, notes: [FolderNote])
    {
        try read(folder: folder, detector: detector, tolerance: tolerance, isCancelled: { false })
    }

    /// ``read(folder:detector:tolerance:)-25b7g`` off the caller's thread: the photos are read on a
    /// queue of the call's own, one after the other, and cancelling the calling task stops the
    /// reading before the next photo, with `CancellationError`.
    ///
    /// ```swift
    /// let (known, _) = try await KnownPeople.read(folder: "known", detector: detector)
    /// ```
    public static func read(folder: String, detector: FaceDetector, tolerance: Double = KnownPeople.defaultTolerance)
        async throws -> (people: KnownPeople, notes: [FolderNote])
    {
        let result = await OffThreadWork.run(label: "FaceKit.KnownPeople.read") { isCancelled in
            Result { () throws(FolderError) in
                try read(folder: folder, detector: detector, tolerance: tolerance, isCancelled: isCancelled)
            }
        }
        if Task.isCancelled { throw CancellationError() }
        return try result.get()
    }

    /// The reading itself; `isCancelled` is asked before each photo (and a cancelled reading's
    /// result is thrown away by its caller).
    private static func read(
        folder: String, detector: FaceDetector, tolerance: Double, isCancelled: () -> Bool
    ) throws(FolderError) -> (people: KnownPeople, notes: [FolderNote]) {
        precondition(detector.options.descriptorMode == .all, "KnownPeople: the detector must compute descriptors")
        var (references, notes) = try referenceImages(in: folder)
        var people: [Person] = []
        for (name, paths) in references {
            if isCancelled() { break }
            var descriptors: [FaceDescriptor] = []
            for path in paths {
                if isCancelled() { break }
                do {
                    descriptors.append(try referenceDescriptor(ofContentsOfFile: path, detector: detector))
                } catch {
                    notes.append(FolderNote(path: path, kind: .unusableImage(person: name, problem: error)))
                }
            }
            if descriptors.isEmpty {
                notes.append(FolderNote(path: folder, kind: .personWithoutImage(person: name)))
            } else {
                people.append(Person(name: name, descriptors: descriptors))
            }
        }
        guard !people.isEmpty else { throw .noUsableImage(folder: folder) }
        return (KnownPeople(people: people, tolerance: tolerance), notes)
    }

    /// Something in a folder of known people that names no one, or a photo that could not be
    /// used, and why: ``read(folder:detector:tolerance:)-25b7g`` goes on without it.
    public struct FolderNote: Sendable, Equatable, CustomStringConvertible {
        public enum Kind: Sendable, Equatable {
            /// A name starting with `.`, which names no one.
            case hiddenEntry
            /// A folder with no image in it: its person cannot be named.
            case folderWithoutImage(person: String)
            /// A folder that cannot be read; `reason` is the system's message.
            case unreadableFolder(reason: String)
            /// A person's name (`person`, the text FaceKit writes its bytes as) that is not UTF-8.
            case nameNotUTF8(person: String)
            /// A photo of `person` that cannot be a reference: no face, several, unreadable.
            case unusableImage(person: String, problem: ReferenceProblem)
            /// A person none of whose photos could be used (`path` is the folder read): they cannot
            /// be named.
            case personWithoutImage(person: String)
        }

        /// The entry or photo the note is about (the folder read, for ``Kind/personWithoutImage(person:)``).
        public var path: String
        public var kind: Kind

        public init(path: String, kind: Kind) {
            self.path = path
            self.kind = kind
        }

        /// A person's name as messages show it: the bytes it stands for (a non-UTF-8 name is kept
        /// as its `\xHH` text, which message output escapes again).
        package static func shown(_ person: String) -> String {
            FilePathEncoding.string(fromPathBytes: FilePathEncoding.pathBytes(fromText: person))
        }

        /// The note in words, for a user; starts with the path.
        public var description: String {
            switch kind {
            case .hiddenEntry, .folderWithoutImage, .unreadableFolder: "\(path): skipped: \(reason)"
            case .nameNotUTF8(let person): "\(path): a name that is not UTF-8; this person is named '\(Self.shown(person))'"
            case .unusableImage(let person, let problem):
                "\(path): skipped as a reference image of \(Self.shown(person)): \(problem.description)"
            case .personWithoutImage(let person):
                "\(Self.shown(person)): no usable reference image in '\(path)'; this person cannot be named"
            }
        }

        /// Why an entry is skipped, for the kinds that skip one (``description`` without the path).
        package var reason: String {
            switch kind {
            case .hiddenEntry: "a hidden name (starting with '.') names no one"
            case .folderWithoutImage(let person): "the folder holds no image, so \(Self.shown(person)) cannot be named"
            case .unreadableFolder(let reason): "cannot read folder: \(reason)"
            case .nameNotUTF8, .unusableImage, .personWithoutImage: description
            }
        }
    }

    /// Why a folder of known people cannot be read at all.
    public enum FolderError: Error, Equatable, Sendable, CustomStringConvertible {
        case noSuchFolder(String)
        /// A file, not a folder.
        case notAFolder(String)
        /// The folder cannot be listed; the system's message.
        case unreadableFolder(String, reason: String)
        /// Neither a folder of images nor an image is in it.
        case noImages(String)
        /// Every photo was unusable (the notes say why).
        case noUsableImage(folder: String)

        /// The folder concerned.
        public var folder: String {
            switch self {
            case .noSuchFolder(let folder), .notAFolder(let folder), .unreadableFolder(let folder, _),
                .noImages(let folder), .noUsableImage(let folder):
                folder
            }
        }

        /// What is wrong with the folder, in words (``description`` without the folder).
        public var reason: String {
            switch self {
            case .noSuchFolder: "no such folder"
            case .notAFolder: "a file, not a folder; give the folder that holds one folder or one image per person"
            case .unreadableFolder(_, let reason): "the folder cannot be read: \(reason)"
            case .noImages:
                "it holds no images; put one folder per person (DIR/<name>/*.jpg) or one image per person (DIR/<name>.jpg)"
            case .noUsableImage: "none of its images could be used as a reference (one face each is needed)"
            }
        }

        public var description: String { "\(folder): \(reason)" }
    }

    // MARK: - Reading the folder

    /// Person name -> image paths, in name order: sub-folders (their images, not recursive) and
    /// images directly in `directory` (named by their file name without extension); and notes on
    /// the entries that name no one (hidden ones, folders without an image or that cannot be
    /// read) and on names that are not UTF-8, in the order met. Other files are passed over, as
    /// a photo walk does.
    ///
    /// Names are read byte for byte (``FolderListing``); since a name is written into tables and
    /// pages as text, it is the text ``FilePathEncoding`` makes of those bytes.
    package static func referenceImages(in directory: String) throws(FolderError)
        -> (people: [(name: String, paths: [String])], notes: [FolderNote])
    {
        var info = stat()
        guard FilePathEncoding.withFileSystemRepresentation(directory, { stat($0, &info) }) == 0 else {
            throw .noSuchFolder(directory)
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .notAFolder(directory) }
        let listing: FolderListing
        switch FolderListing.read(directory) {
        case .success(let read): listing = read
        case .failure(let failure): throw .unreadableFolder(directory, reason: String(cString: strerror(failure.code)))
        }
        var byName: [String: [String]] = [:]
        var notes: [FolderNote] = []
        func add(_ bytesName: String, path: String, _ paths: [String]) {
            let name = FilePathEncoding.text(bytesName)
            if String(validating: FilePathEncoding.pathBytes(bytesName), as: UTF8.self) == nil {
                notes.append(FolderNote(path: path, kind: .nameNotUTF8(person: name)))
            }
            byName[name, default: []] += paths
        }
        for child in listing.children {
            let path = listing.prefix + child.name
            if child.name.hasPrefix(".") {
                notes.append(FolderNote(path: path, kind: .hiddenEntry))
                continue
            }
            switch child.kind {
            case .file:
                add((child.name as NSString).deletingPathExtension, path: path, [path])
            case .folder:
                switch FolderListing.read(path) {
                case .success(let inside):
                    let images = inside.children.filter { child in
                        guard case .file = child.kind else { return false }
                        return !child.name.hasPrefix(".")
                    }
                    if images.isEmpty {
                        notes.append(FolderNote(path: path, kind: .folderWithoutImage(person: FilePathEncoding.text(child.name))))
                    } else {
                        add(child.name, path: path, images.map { inside.prefix + $0.name })
                    }
                case .failure(let failure):
                    notes.append(FolderNote(path: path, kind: .unreadableFolder(reason: String(cString: strerror(failure.code)))))
                }
            case .unreadableFolder(let code):
                notes.append(FolderNote(path: path, kind: .unreadableFolder(reason: String(cString: strerror(code)))))
            }
        }
        guard !byName.isEmpty else { throw .noImages(directory) }
        return (byName.keys.sorted().map { ($0, byName[$0]!) }, notes)
    }
}
