import FaceKit
import FaceKitArguments

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes `FILE.partial` next to `FILE`, records checkpoints in `FILE.journal`, and renames the
/// partial file over `FILE` once complete: the file side of `facekit analyze --resume`.
///
/// `FILE` therefore holds either its old content or the complete new output, never a half-written
/// table, and an interrupted run (killed, or the machine restarted) leaves the partial file and
/// the journal behind for a later run to continue from the last checkpoint:
///
/// - `init` opens (creating it if needed) and locks the journal: a second writer of the same
///   `FILE` is refused while the first runs. Nothing else changes until ``start(journalHeader:)``
///   or ``resume(atByte:journalLength:)``.
/// - ``checkpoint(_:)`` flushes and syncs the partial file, then appends a line to the journal and
///   syncs it, so every journal line describes data already on disk. The journal's lines are
///   opaque here; ``journalLines()`` reads them back, leaving out a last line torn by a crash.
/// - ``commit()`` renames the partial file over `FILE`, syncs the folder and deletes the journal,
///   unless ``keepsJournal`` (a collection run's journal stays as the record of what made `FILE`).
/// - ``close()``, or dropping the value without ``commit()``, leaves both files for a resume.
///
/// Neither file is ever opened through a symbolic link, which someone else may have planted at
/// its name to lead the writes elsewhere. Both are FaceKit's own files in `FILE`'s folder, held
/// open (``OpenFolder``): the journal is created `O_CREAT | O_EXCL | O_NOFOLLOW` at its name (that
/// name and its lock are how a second run is refused) and a link found there is removed; a new
/// partial file is made under a hidden name (``TemporaryFile``) and renamed over whatever was at
/// `FILE.partial`; and `FILE.partial` is renamed over `FILE` only while it is still the file
/// written, replacing a link at `FILE` rather than following it.
///
/// ```swift
/// let file = try ResumableFileOutput(path: "faces.csv")
/// try file.start(journalHeader: #"{"run":1}"#)
/// file.write("source,face\n")
/// try file.checkpoint(#"{"bytes":\#(file.bytesWritten)}"#)
/// try file.commit()   // faces.csv written; faces.csv.partial and faces.csv.journal gone
/// ```
final class ResumableFileOutput: TextOutput {
    /// `FILE`, the complete output.
    let path: String
    /// `FILE.partial`, the output so far.
    let partialPath: String
    /// `FILE.journal`, one line per checkpoint after a first line describing the run.
    let journalPath: String
    /// Whether ``commit()`` leaves the journal, with its complete checkpoint, next to `FILE`.
    let keepsJournal: Bool
    /// `FILE`'s folder, and the three names in it.
    private let folder: OpenFolder
    private let name: String
    private let partialName: String
    private let journalName: String
    private let journal: Int32
    private let createdJournal: Bool
    private var partial: FileDescriptorOutput?
    private var started = false
    private var closed = false
    /// The size of the partial file once everything written so far is flushed.
    private(set) var bytesWritten: UInt64 = 0

    /// One complete line of the journal, and the journal's length up to the end of that line.
    struct JournalLine: Equatable, Sendable {
        var text: String
        var end: UInt64
    }

    init(path: String, keepsJournal: Bool = false) throws(OutputError) {
        self.path = path
        self.keepsJournal = keepsJournal
        partialPath = path + ".partial"
        journalPath = path + ".journal"
        folder = try OpenFolder(holding: path)
        name = OpenFolder.name(of: path)
        partialName = name + ".partial"
        journalName = name + ".journal"
        if let info = folder.status(of: name), (info.st_mode & S_IFMT) == S_IFDIR {
            throw OutputError("\(path): cannot write output: it is a folder")
        }
        // Refused now, before the run's models load, rather than when the rows start; a link
        // there is replaced when the run starts.
        if let info = folder.status(of: partialName), (info.st_mode & S_IFMT) != S_IFLNK,
            let reason = RegularFile.refusal(info.st_mode)
        {
            throw OutputError("\(path): cannot write output: \(partialPath): \(reason)")
        }
        var (descriptor, created): (Int32, Bool) = (-1, false)
        for _ in 0..<3 where descriptor < 0 {
            switch folder.create(journalName, flags: O_RDWR | O_APPEND) {
            case .success(let opened): (descriptor, created) = (opened, true)
            case .failure(let refusal) where refusal.code == EEXIST:
                switch folder.openRegular(journalName, O_RDWR | O_APPEND) {
                case .success(let opened): descriptor = opened
                // Not a journal any run wrote: a link planted there is removed, never followed.
                case .failure(let refusal) where refusal.code == ELOOP: folder.remove(journalName)
                case .failure(let refusal) where refusal.code == ENOENT: continue
                case .failure(let refusal) where refusal.code == 0:
                    throw OutputError("\(path): cannot write output: \(journalPath): \(refusal.reason)")
                case .failure(let refusal):
                    throw OutputError("\(path): cannot write output: \(refusal.reason)")
                }
            case .failure(let refusal):
                throw OutputError("\(path): cannot write output: \(refusal.reason)")
            }
        }
        guard descriptor >= 0 else {
            throw OutputError("\(path): cannot write output: \(journalPath): \(OpenFolder.linkReason)")
        }
        if let code = JournalLock.take(descriptor, exclusive: true) {
            closeDescriptor(descriptor)
            if code == EWOULDBLOCK {
                throw OutputError("\(path): cannot write output: another run is writing it (\(journalPath) is locked)")
            }
            throw OutputError("\(path): cannot write output: \(systemErrorMessage(code))")
        }
        journal = descriptor
        createdJournal = created
    }

    /// Whether `FILE` exists (a link there counts, even one that leads nowhere).
    var outputExists: Bool { folder.status(of: name) != nil }

    /// The size of `FILE`, `nil` when it is not a regular file (or missing).
    var outputSize: UInt64? {
        guard let info = folder.status(of: name), (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return UInt64(info.st_size)
    }

    /// The size of `FILE.partial`, `nil` when there is none (or a link: not a file a run wrote).
    var partialSize: UInt64? {
        guard let info = folder.status(of: partialName), (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return UInt64(info.st_size)
    }

    /// The journal's complete lines, in order; a last line without its LF is left out.
    func journalLines() throws(OutputError) -> [JournalLine] {
        try Self.journalLines(descriptor: journal, path: journalPath)
    }

    /// The complete lines of the journal open at `descriptor` (named `path` in messages).
    static func journalLines(descriptor: Int32, path: String) throws(OutputError) -> [JournalLine] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(bytes.count)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw OutputError("\(path): cannot read: \(systemErrorMessage(errno))")
            }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        var lines: [JournalLine] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            lines.append(
                JournalLine(text: String(decoding: bytes[start..<index], as: UTF8.self), end: UInt64(index + 1)))
            start = index + 1
        }
        return lines
    }

    /// Starts afresh: the journal gets `journalHeader` as its only line, and `FILE.partial` is
    /// created empty (replacing one left by an earlier run, or a link, by a rename).
    func start(journalHeader: String) throws(OutputError) {
        try check(ftruncate(journal, 0) == 0, journalPath)
        try appendToJournal(journalHeader)
        let created = try TemporaryFile(for: partialPath, in: folder)
        do {
            try created.moveIntoPlace()
        } catch {
            closeDescriptor(created.descriptor)
            throw error
        }
        partial = FileDescriptorOutput(descriptor: created.descriptor, buffered: true)
        started = true
        bytesWritten = 0
        folder.sync()
    }

    /// Continues an interrupted run: `FILE.partial` is cut to `bytes` (what its last checkpoint
    /// recorded) and the journal to `journalLength` (the end of its last good line); what is
    /// written next is appended.
    func resume(atByte bytes: UInt64, journalLength: UInt64) throws(OutputError) {
        try check(ftruncate(journal, off_t(journalLength)) == 0, journalPath)
        try check(fsync(journal) == 0, journalPath)
        switch folder.openRegular(partialName, O_WRONLY | O_APPEND) {
        case .success(let descriptor):
            partial = FileDescriptorOutput(descriptor: descriptor, buffered: true)
            started = true
        case .failure(let refusal):
            throw OutputError("\(partialPath): cannot write output: \(refusal.reason)")
        }
        try check(ftruncate(partial!.descriptor, off_t(bytes)) == 0, partialPath)
        bytesWritten = bytes
    }

    func write(_ text: String) {
        bytesWritten += UInt64(text.utf8.count)
        partial?.write(text)
    }

    func flush() { partial?.flush() }

    /// Makes everything written so far durable, then appends `line` to the journal and syncs it.
    func checkpoint(_ line: String) throws(OutputError) {
        guard let partial else { preconditionFailure("ResumableFileOutput.checkpoint before start or resume") }
        partial.flush()
        if partial.errorNumber != 0 { throw failure(partial.errorNumber) }
        try check(fsync(partial.descriptor) == 0, partialPath)
        try appendToJournal(line)
    }

    /// Renames `FILE.partial` over `FILE` and deletes the journal (unless ``keepsJournal``); call
    /// after the last ``checkpoint(_:)``.
    func commit() throws(OutputError) {
        guard let partial else { preconditionFailure("ResumableFileOutput.commit before start or resume") }
        partial.flush()
        if partial.errorNumber != 0 { throw failure(partial.errorNumber) }
        try check(fsync(partial.descriptor) == 0, partialPath)
        // Renamed only while it is the file written: whatever else took its name since (a link
        // planted there) would otherwise become `FILE`.
        var written = stat()
        guard fstat(partial.descriptor, &written) == 0, let named = folder.status(of: partialName),
            named.st_dev == written.st_dev, named.st_ino == written.st_ino
        else {
            throw OutputError("\(partialPath): cannot write output: it was replaced while the run wrote it")
        }
        closeDescriptor(partial.descriptor)
        self.partial = nil
        let renamed = folder.rename(partialName, to: name)
        if renamed != 0 { throw failure(renamed, path) }
        folder.sync()
        if !keepsJournal { folder.remove(journalName) }
        close()
    }

    /// Deletes the journal and any partial file: nothing is left to resume.
    func discard() {
        guard !closed else { return }
        folder.remove(partialName)
        folder.remove(journalName)
        close()
    }

    /// Closes both files and leaves them for a later resume; a journal this value created and
    /// never started is deleted.
    func close() {
        guard !closed else { return }
        closed = true
        if let partial {
            partial.flush()
            closeDescriptor(partial.descriptor)
            self.partial = nil
        }
        if createdJournal && !started { folder.remove(journalName) }
        closeDescriptor(journal)
    }

    deinit { close() }

    private func appendToJournal(_ line: String) throws(OutputError) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                writeDescriptor(journal, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw failure(errno, journalPath)
            }
            offset += written
        }
        try check(fsync(journal) == 0, journalPath)
        started = true
    }

    private func check(_ succeeded: Bool, _ file: String) throws(OutputError) {
        if !succeeded { throw failure(errno, file) }
    }

    private func failure(_ code: Int32, _ file: String? = nil) -> OutputError {
        OutputError("\(file ?? partialPath): cannot write output: \(systemErrorMessage(code))")
    }
}

#if canImport(Glibc)
    private func closeDescriptor(_ descriptor: Int32) { _ = Glibc.close(descriptor) }
    private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        Glibc.write(descriptor, bytes, count)
    }
#else
    private func closeDescriptor(_ descriptor: Int32) { _ = Darwin.close(descriptor) }
    private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        Darwin.write(descriptor, bytes, count)
    }
#endif
