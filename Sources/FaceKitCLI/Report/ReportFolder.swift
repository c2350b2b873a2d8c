import FaceKit
import FaceKitArguments
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `--output` folder of `facekit report`, replaced whole: the new site is built in a hidden
/// folder beside it, `.<name>.<random>.tmp` (made with `mkdirat`, which never follows a link and
/// fails on anything already there, then locked with `flock`), and only once complete takes the
/// folder's place, in one step where the file system can (`renameat2`'s `RENAME_EXCHANGE`; else
/// two renames a moment apart). An interrupted run so leaves the earlier report whole, its pages
/// showing their own pictures, and the new one unfinished under its hidden name, which the next
/// report into the folder removes (an unlocked one only: a run still writing holds its lock).
///
/// Only a folder that is missing, empty or an earlier report (``isReport(_:)``: its pages, style
/// sheet, script and pictures, named as FaceKit names them) is replaced; one holding anything
/// else (`report --output photos photos`, notes beside a report) is refused before any work, so
/// that replacing it can never remove a file FaceKit did not write. The earlier report is
/// removed by those names too.
///
/// ```swift
/// let folder = try ReportFolder(target: "report/")   // checked; an earlier run's leftovers removed
/// let building = try folder.begin()                  // "/home/me/.report.123.tmp"
/// // write the site into building, then:
/// try folder.commit()                                // report/ is the new site
/// ```
final class ReportFolder {
    /// The folder as the user named it, for messages.
    let target: String
    /// Its parent, open (``OpenFolder``), and its name there.
    private let parent: OpenFolder
    private let name: String
    private var buildingName: String?
    private var lock: Int32 = -1

    /// The pages and files at the top of a report.
    static let pageNames: Set<String> = [
        "index.html", "style.css", "sort.js", "photos.html", "people.html", "videos.html",
    ]
    /// The folders of a report, with the names their files have.
    static let folderNames: [String: @Sendable (String) -> Bool] = [
        "images": { isNumbered($0, prefixes: ["photo", "full", "person", "track", "video"], ending: ".jpg") },
        "people": { isNumbered($0, prefixes: ["person"], ending: ".html") },
        "videos": { isNumbered($0, prefixes: ["video"], ending: ".html") },
    ]

    /// Checks `target`, makes its parent folders where missing, and removes what interrupted
    /// reports into it left beside it. Throws when `target` is neither missing, nor an empty
    /// folder, nor a report.
    init(target: String) throws(OutputError) {
        self.target = target
        var path = target
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        if ReportCommand.exists(path) {
            // The folder the user named may be a link to one: the report replaces what it leads to.
            path = AnnotationTarget.resolvingLinks(path)
        } else {
            try OutputFolder.make(OpenFolder.folderPath(of: path))
        }
        let name = OpenFolder.name(of: path)
        guard !name.isEmpty, name != ".", name != ".." else {
            throw OutputError("\(target): cannot write the report: name a folder of its own for it")
        }
        parent = try OpenFolder(holding: path)
        self.name = name
        try check()
        removeLeftovers()
    }

    deinit {
        if lock >= 0 { close(lock) }
    }

    /// The hidden folder's prefix, `.<name>.`, and ending, `.tmp`.
    private var hiddenPrefix: String { "." + name + "." }

    /// The path of `name` beside the target.
    private func path(of entry: String) -> String { parent.path(of: entry) }

    /// Whether `path` (links resolved) lies in a hidden folder a report into `target` builds or
    /// left: such pictures are never photos to analyse.
    static func isInsideBuildingFolder(_ path: String, target: String) -> Bool {
        var trimmed = target
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        let resolved = ReportCommand.exists(trimmed) ? AnnotationTarget.resolvingLinks(trimmed) : trimmed
        let folder = AnnotationTarget.resolvingLinks(OpenFolder.folderPath(of: resolved))
        let prefix = (folder == "/" ? "/" : folder + "/") + "." + OpenFolder.name(of: resolved) + "."
        guard path.hasPrefix(prefix) else { return false }
        let rest = path.dropFirst(prefix.count)
        guard let slash = rest.firstIndex(of: "/") else { return false }
        return isHiddenNumbered("." + OpenFolder.name(of: resolved) + "." + rest[..<slash])
    }

    /// Refuses a target that holds anything but a report.
    private func check() throws(OutputError) {
        guard let info = parent.status(of: name) else { return }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw OutputError("\(target): cannot make folder: it is a file, not a folder")
        }
        if let stranger = Self.stranger(in: parent.descriptor, name) {
            throw OutputError(
                "\(target): holds \(stranger), which is not part of a report: report replaces its --output folder "
                    + "whole, so it writes only into a new or empty folder or over an earlier report; choose another folder")
        }
    }

    /// Makes the hidden folder the site is built in, and returns its path.
    func begin() throws(OutputError) -> String {
        for _ in 0..<100 {
            let candidate = hiddenPrefix + "\(UInt32.random(in: 0...UInt32.max)).tmp"
            let code = FilePathEncoding.withFileSystemRepresentation(candidate) {
                mkdirat(parent.descriptor, $0, 0o777) == 0 ? 0 : errno
            }
            if code == EEXIST { continue }
            guard code == 0 else {
                throw OutputError("\(path(of: candidate)): cannot make the report's temporary folder: \(systemErrorMessage(code))")
            }
            lock = FilePathEncoding.withFileSystemRepresentation(candidate) {
                openat(parent.descriptor, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            if lock >= 0 { _ = flock(lock, LOCK_EX | LOCK_NB) }
            buildingName = candidate
            return path(of: candidate)
        }
        throw OutputError("\(target): cannot make the report's temporary folder: no free name")
    }

    /// The hidden folder's path, once ``begin()`` made it.
    var building: String? { buildingName.map(path(of:)) }

    /// Puts the built site in the target's place and removes the earlier report. Where the
    /// target is no longer missing, empty or a report, the new site stays where it was built
    /// and the error says so.
    func commit() throws(OutputError) {
        guard let built = buildingName else { return }
        do {
            try check()
        } catch {
            throw OutputError(error.description + "; the new report is in \(path(of: built))")
        }
        guard parent.status(of: name) != nil else {
            try rename(built, to: name)
            buildingName = nil
            parent.sync()
            return
        }
        // Swap the two in one step: the earlier report ends up under the hidden name.
        if Self.exchange(parent.descriptor, built, name) != 0 {
            // A file system without the exchange: the earlier report moved aside, then the new one in.
            let aside = hiddenPrefix + "\(UInt32.random(in: 0...UInt32.max)).tmp"
            try rename(name, to: aside)
            do {
                try rename(built, to: name)
            } catch {
                _ = parent.rename(aside, to: name)
                throw error
            }
            Self.removeReport(in: parent.descriptor, aside)
        } else {
            Self.removeReport(in: parent.descriptor, built)
        }
        buildingName = nil
        parent.sync()
    }

    /// Removes the unfinished site (after an error).
    func abandon() {
        if let built = buildingName { Self.removeReport(in: parent.descriptor, built) }
        buildingName = nil
    }

    private func rename(_ from: String, to: String) throws(OutputError) {
        let code = parent.rename(from, to: to)
        guard code == 0 else { throw OutputError("\(target): cannot put the report in place: \(systemErrorMessage(code))") }
    }

    /// Removes the hidden folders earlier reports into the target left beside it (interrupted, or
    /// an earlier report moved aside and not yet removed) that no running report holds locked.
    private func removeLeftovers() {
        for entry in Self.entries(of: parent.descriptor) where entry.isFolder {
            guard entry.name.hasPrefix(hiddenPrefix), entry.name.hasSuffix(".tmp") else { continue }
            let number = entry.name.dropFirst(hiddenPrefix.count).dropLast(4)
            guard !number.isEmpty, number.count <= 10, number.allSatisfy({ ("0"..."9").contains($0) }) else { continue }
            let held = FilePathEncoding.withFileSystemRepresentation(entry.name) {
                openat(parent.descriptor, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            guard held >= 0 else { continue }
            defer { close(held) }
            guard flock(held, LOCK_EX | LOCK_NB) == 0 else { continue }
            Self.removeReport(in: parent.descriptor, entry.name)
        }
    }

    // MARK: - What a report holds

    /// `name` is `<prefix>-<n>[-<m>...]<ending>` for one of `prefixes`.
    static func isNumbered(_ name: String, prefixes: [String], ending: String) -> Bool {
        guard name.hasSuffix(ending) else { return false }
        for prefix in prefixes where name.hasPrefix(prefix + "-") {
            let numbers = name.dropFirst(prefix.count + 1).dropLast(ending.count).split(separator: "-", omittingEmptySubsequences: false)
            return numbers.allSatisfy { !$0.isEmpty && $0.count <= 18 && $0.allSatisfy { ("0"..."9").contains($0) } }
        }
        return false
    }

    /// `.<anything>.<digits>.tmp...`: a hidden temporary file FaceKit made (``TemporaryFile``).
    static func isHiddenNumbered(_ name: String) -> Bool {
        guard name.hasPrefix("."), let range = name.range(of: ".tmp", options: .backwards) else { return false }
        let before = name[..<range.lowerBound]
        guard let dot = before.lastIndex(of: "."), dot > name.startIndex else { return false }
        let number = before[before.index(after: dot)...]
        return !number.isEmpty && number.count <= 10 && number.allSatisfy { ("0"..."9").contains($0) }
    }

    struct Entry {
        var name: String
        var mode: mode_t
        var isFolder: Bool { (mode & S_IFMT) == S_IFDIR }
        var isFile: Bool { (mode & S_IFMT) == S_IFREG }
    }

    /// The entries of the folder open as `descriptor`, each as `lstat` sees it.
    static func entries(of descriptor: Int32) -> [Entry] {
        let copy = dup(descriptor)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return []
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var found: [Entry] = []
        while let entry = readdir(stream) {
            let bytes = withUnsafeBytes(of: &entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            let name = FilePathEncoding.string(fromPathBytes: bytes)
            if name == "." || name == ".." { continue }
            var info = stat()
            let examined = FilePathEncoding.withFileSystemRepresentation(name) {
                fstatat(descriptor, $0, &info, AT_SYMLINK_NOFOLLOW) == 0
            }
            if examined { found.append(Entry(name: name, mode: info.st_mode)) }
        }
        return found
    }

    /// The first entry of the folder `name` (in `descriptor`) that a report does not hold, `nil`
    /// when every one is a report's.
    static func stranger(in descriptor: Int32, _ name: String) -> String? {
        let folder = FilePathEncoding.withFileSystemRepresentation(name) {
            openat(descriptor, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        }
        guard folder >= 0 else { return name }
        defer { close(folder) }
        for entry in entries(of: folder).sorted(by: { $0.name < $1.name }) {
            if entry.isFile && (pageNames.contains(entry.name) || isHiddenNumbered(entry.name)) { continue }
            guard entry.isFolder, let fits = folderNames[entry.name] else { return shown(entry.name, entry) }
            let inner = FilePathEncoding.withFileSystemRepresentation(entry.name) {
                openat(folder, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            guard inner >= 0 else { return shown(entry.name, entry) }
            defer { close(inner) }
            for file in entries(of: inner).sorted(by: { $0.name < $1.name })
            where !(file.isFile && (fits(file.name) || isHiddenNumbered(file.name))) {
                return shown(entry.name + "/" + file.name, file)
            }
        }
        return nil
    }

    /// An entry named in a refusal, with what it is when that is why: `images (a symbolic link)`.
    private static func shown(_ name: String, _ entry: Entry) -> String {
        MessageText.escaped(name) + ((entry.mode & S_IFMT) == S_IFLNK ? " (a symbolic link)" : "")
    }

    /// Removes the report in the folder `name` (in `descriptor`): its pages, pictures, FaceKit's
    /// temporary files and folders, then the folder. Anything else is left, and so the folder.
    static func removeReport(in descriptor: Int32, _ name: String) {
        let folder = FilePathEncoding.withFileSystemRepresentation(name) {
            openat(descriptor, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        }
        guard folder >= 0 else { return }
        for entry in entries(of: folder) {
            if entry.isFile && (pageNames.contains(entry.name) || isHiddenNumbered(entry.name)) {
                _ = FilePathEncoding.withFileSystemRepresentation(entry.name) { unlinkat(folder, $0, 0) }
            } else if entry.isFolder, let fits = folderNames[entry.name] {
                let inner = FilePathEncoding.withFileSystemRepresentation(entry.name) {
                    openat(folder, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                }
                guard inner >= 0 else { continue }
                for file in entries(of: inner) where file.isFile && (fits(file.name) || isHiddenNumbered(file.name)) {
                    _ = FilePathEncoding.withFileSystemRepresentation(file.name) { unlinkat(inner, $0, 0) }
                }
                close(inner)
                _ = FilePathEncoding.withFileSystemRepresentation(entry.name) { unlinkat(folder, $0, AT_REMOVEDIR) }
            }
        }
        close(folder)
        _ = FilePathEncoding.withFileSystemRepresentation(name) { unlinkat(descriptor, $0, AT_REMOVEDIR) }
    }

    /// Swaps the entries `a` and `b` of the folder `descriptor` in one step (Linux's
    /// `renameat2(RENAME_EXCHANGE)`, looked up at run time as Glibc's module does not declare
    /// it): 0, or the `errno` (`ENOSYS` where it is missing, `EINVAL` on a file system without it).
    static func exchange(_ descriptor: Int32, _ a: String, _ b: String) -> Int32 {
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        // RTLD_DEFAULT, a null handle on glibc: the symbol wherever the process has it.
        guard let symbol = dlsym(nil, "renameat2") else { return ENOSYS }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let renameExchange: UInt32 = 2
        return FilePathEncoding.withFileSystemRepresentation(a) { from in
            FilePathEncoding.withFileSystemRepresentation(b) { to in
                renameat2(descriptor, from, descriptor, to, renameExchange) == 0 ? 0 : errno
            }
        }
    }
}
