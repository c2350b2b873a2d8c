internal import CFaceKit

/// How the C allocator keeps the memory a process frees: set by `facekit analyze`, which decodes
/// one large photo after another.
///
/// glibc's malloc returns each freed block of 32 MB or more (a decoded 12-megapixel photo) to the
/// system, and the next photo's block then arrives as fresh pages the kernel zeroes on first
/// touch; worker threads' arenas do the same with blocks that fill their heaps. Kept instead,
/// `facekit analyze` on a folder of photos takes about a tenth less time at the same peak memory
/// (docs/benchmarks.md). Not for video: with one arena, `track`'s threads contend for it and a
/// long clip took a tenth longer. Like ``BLASThreads`` the setting belongs to the process, so it
/// has `package` access, for FaceKit's executables: a library never changes its caller's allocator.
///
/// ```swift
/// ProcessAllocator.keepFreedMemory()   // facekit analyze: FaceKitCommand.prepareAllocator(for:)
/// ```
package enum ProcessAllocator {
    /// One arena for all threads, no block mapped apart below 1 GB, the heap never trimmed
    /// (`fk_allocator_keep_freed_memory`). Returns whether the C library took the settings
    /// (glibc's does). Call it before threads start.
    @discardableResult
    package static func keepFreedMemory() -> Bool { fk_allocator_keep_freed_memory() == 1 }
}
