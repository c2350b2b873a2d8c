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
///   unless ``keepsJournal`` (a shard's journal stays as the record `facekit merge` checks).
/// - ``close()``, or dropping the value without ``commit()``, leaves both files for a resume.
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
        var info = stat()
        if Self.file(path, { stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw OutputError("\(path): cannot write output: it is a folder")
        }
        // Refused now, before the run's models load, rather than when the rows start.
        if Self.file(partialPath, { stat($0, &info) }) == 0, let reason = RegularFile.refusal(info.st_mode) {
            throw OutputError("\(path): cannot write output: \(partialPath): \(reason)")
        }
        var created = true
        var opened = RegularFile.open(journalPath, O_RDWR | O_APPEND | O_CREAT | O_EXCL)
        if case .failure(let refusal) = opened, refusal.code == EEXIST {
            created = false
            opened = RegularFile.open(journalPath, O_RDWR | O_APPEND)
        }
        let descriptor: Int32
        switch opened {
        case .success(let opened): descriptor = opened
        case .failure(let refusal) where refusal.code == 0:
            throw OutputError("\(path): cannot write output: \(journalPath): \(refusal.reason)")
        case .failure(let refusal):
            throw OutputError("\(path): cannot write output: \(refusal.reason)")
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

    /// Whether `FILE` exists.
    var outputExists: Bool { Self.file(path, { access($0, F_OK) }) == 0 }

    /// The size of `FILE.partial`, `nil` when there is none.
    var partialSize: UInt64? {
        var info = stat()
        guard Self.file(partialPath, { stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return nil
        }
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
    /// created empty (replacing one left by an earlier run).
    func start(journalHeader: String) throws(OutputError) {
        try check(ftruncate(journal, 0) == 0, journalPath)
        try appendToJournal(journalHeader)
        try openPartial(flags: O_CREAT | O_TRUNC)
        bytesWritten = 0
        syncFolder()
    }

    /// Continues an interrupted run: `FILE.partial` is cut to `bytes` (what its last checkpoint
    /// recorded) and the journal to `journalLength` (the end of its last good line); what is
    /// written next is appended.
    func resume(atByte bytes: UInt64, journalLength: UInt64) throws(OutputError) {
        try check(ftruncate(journal, off_t(journalLength)) == 0, journalPath)
        try check(fsync(journal) == 0, journalPath)
        try openPartial(flags: 0)
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
        closeDescriptor(partial.descriptor)
        self.partial = nil
        let renamed = Self.file(partialPath) { from in
            Self.file(path) { to in rename(from, to) == 0 ? 0 : errno }
        }
        if renamed != 0 { throw failure(renamed, path) }
        syncFolder()
        if !keepsJournal { TemporaryFile.removeFile(journalPath) }
        close()
    }

    /// Deletes the journal and any partial file: nothing is left to resume.
    func discard() {
        guard !closed else { return }
        TemporaryFile.removeFile(partialPath)
        TemporaryFile.removeFile(journalPath)
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
        if createdJournal && !started { TemporaryFile.removeFile(journalPath) }
        closeDescriptor(journal)
    }

    deinit { close() }

    private func openPartial(flags: Int32) throws(OutputError) {
        switch RegularFile.open(partialPath, O_WRONLY | O_APPEND | flags) {
        case .success(let descriptor):
            partial = FileDescriptorOutput(descriptor: descriptor, buffered: true)
            started = true
        case .failure(let refusal):
            throw OutputError("\(partialPath): cannot write output: \(refusal.reason)")
        }
    }

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

    /// Syncs the folder holding `FILE`, so that a rename or a new file survives a restart.
    private func syncFolder() {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let descriptor = Self.file(folder) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        closeDescriptor(descriptor)
    }

    /// `body` with the bytes of `path` (FilePathEncoding) as a C string.
    private static func file<Result>(_ path: String, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        FilePathEncoding.withFileSystemRepresentation(path, body)
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
